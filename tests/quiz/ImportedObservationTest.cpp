// Observation questions on PyTorch profiler traces (tests/data/pytorch, recorded by
// scripts/record-pytorch-trace): the templates whose numbers such a trace holds ask about
// it; the others, which need what it lacks (categories, the model's size, options), ask nothing.
#include "quiz/observations/Observation.h"
#include "trace/OpenTrace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace fs = std::filesystem;
using namespace shardlab::quiz;

namespace {

const fs::path kData = fs::path(SHARDLAB_TEST_DATA_DIR) / ".." / ".." / "data" / "pytorch";

shardlab::trace::Trace imported(const char* strategy) {
  auto opened = shardlab::trace::openTrace((kData / strategy).string());
  EXPECT_TRUE(opened.ok()) << opened.describeError((kData / strategy).string());
  EXPECT_TRUE(opened.imported.has_value());
  return std::move(opened.read.trace);
}

std::set<std::string> templatesOf(const std::vector<ObservedQuestion>& questions) {
  std::set<std::string> ids;
  for (const auto& q : questions) ids.insert(q.templateId);
  return ids;
}

} // namespace

TEST(ImportedObservations, FsdpAsksHowManyAllGathersPerStepAndHowMuchWasHidden) {
  const auto trace = imported("fsdp");
  const auto questions = observe(trace);
  EXPECT_EQ(templatesOf(questions), (std::set<std::string>{"collective-count", "overlap-fraction"}));
  for (const auto& q : questions) {
    const auto j = q.toJson("en", 1);
    const std::string text = j["text"].get<std::string>();
    if (q.templateId == "collective-count") {
      // 18 all-gathers over 3 ProfilerSteps: 6 = each of the 3 layers gathered for its forward and its backward.
      ASSERT_TRUE(q.numeric.has_value());
      EXPECT_EQ(q.numeric->value, 6.0);
      EXPECT_NE(text.find("\"fully_shard\""), std::string::npos) << text; // not a sharding the trace does not name
    } else {
      EXPECT_NE(text.find("imported from a PyTorch profiler trace"), std::string::npos) << text;
      EXPECT_EQ(text.find("prefetch"), std::string::npos) << text; // the trace does not say
    }
  }
}

TEST(ImportedObservations, TemplatesThatNeedWhatTheTraceLacksAskNothing) {
  // DDP: no units (PyTorch's buckets are not in the trace), not FSDP: no question at all.
  EXPECT_TRUE(observe(imported("ddp")).empty());
  // Two runs to compare, one of them imported: only the templates that read such a trace.
  const auto fsdp = imported("fsdp"), ddp = imported("ddp");
  for (const auto& q : observe(fsdp, &ddp))
    EXPECT_TRUE(q.templateId == "collective-count" || q.templateId == "overlap-fraction") << q.templateId;
}
