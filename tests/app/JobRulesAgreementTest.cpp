// The app's experiment form judges the agreement table (tests/data/job-specs.json)
// as the launcher and the quiz do (tests/integration/JobRulesAgreementTest.cpp): the
// same verdict, the same field named, the same rule. Rows marked "form": false hold a
// wrong JSON type, which no widget of the form can hold.
#include "data/JobSpecTable.h"
#include "views/ExperimentPanel.h"

#include <QLineEdit>

#include <gtest/gtest.h>

using namespace shardlab::app;

TEST(JobRulesAgreement, TheFormGivesEachRowItsVerdictAndNamesItsField) {
  const auto table = shardlab::testing::loadJobSpecTable();
  int checked = 0;
  for (const auto& row : table.rows) {
    if (!row.form) continue;
    SCOPED_TRACE(row.name);
    // A size and a mesh are typed as text into the form; everything else comes through setConfig.
    nlohmann::json spec = table.merged(row);
    QString budgetText, meshText;
    if (spec.contains("memory_budget") && spec["memory_budget"].is_string()) {
      budgetText = QString::fromStdString(spec["memory_budget"].get<std::string>());
      spec.erase("memory_budget");
    }
    if (spec.contains("mesh") && spec["mesh"].is_string()) {
      meshText = QString::fromStdString(spec["mesh"].get<std::string>());
      spec.erase("mesh");
    }
    std::vector<shardlab::JobIssue> unreadable;
    const auto config = shardlab::JobConfig::fromJson(spec, unreadable);
    ASSERT_TRUE(unreadable.empty()) << "a row marked for the form must hold what the form holds: "
                                    << unreadable.front().message();
    ExperimentPanel form;
    form.setConfig(config);
    if (!budgetText.isEmpty()) form.findChild<QLineEdit*>(QStringLiteral("memoryBudget"))->setText(budgetText);
    if (!meshText.isEmpty()) form.findChild<QLineEdit*>(QStringLiteral("mesh"))->setText(meshText);
    const auto issues = form.issues();
    ++checked;
    if (row.valid) {
      EXPECT_TRUE(issues.empty()) << issues.front().message();
      continue;
    }
    ASSERT_FALSE(issues.empty());
    EXPECT_EQ(issues.front().field, row.field) << issues.front().message();
    EXPECT_EQ(std::string(shardlab::ruleId(issues.front().rule)), row.rule) << issues.front().message();
    EXPECT_TRUE(form.issuesText().contains(QString::fromStdString(row.field) + QLatin1Char(':')))
        << form.issuesText().toStdString();
  }
  EXPECT_GT(checked, 20);
}
