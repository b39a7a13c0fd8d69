#include "views/ExperimentPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  auto combo = [&](const QStringList& items) {
    auto* c = new QComboBox(this);
    c->addItems(items);
    connect(c, &QComboBox::currentTextChanged, this, &ExperimentPanel::revalidate);
    return c;
  };
  // Spin boxes accept a wide range so the form, not the widget, names the rule.
  auto spin = [&](int lo, int hi) {
    auto* s = new QSpinBox(this);
    s->setRange(lo, hi);
    connect(s, &QSpinBox::valueChanged, this, &ExperimentPanel::revalidate);
    return s;
  };
  strategy_ = combo({QStringLiteral("ddp"), QStringLiteral("fsdp"), QStringLiteral("pipeline"), QStringLiteral("tp")});
  sharding_ = combo({QStringLiteral("full"), QStringLiteral("grad-op")});
  schedule_ = combo({QStringLiteral("naive"), QStringLiteral("gpipe"), QStringLiteral("1f1b"), QStringLiteral("interleaved")});
  device_ = combo({QStringLiteral("cpu"), QStringLiteral("auto"), QStringLiteral("cuda")});
  ranks_ = spin(0, 1024);
  layers_ = spin(0, 100000);
  hidden_ = spin(0, 100000);
  vocab_ = spin(0, 10000000);
  batch_ = spin(0, 100000);
  steps_ = spin(0, 100000);
  seed_ = spin(0, 1000000);
  micro_ = spin(0, 1024);
  virtual_ = spin(0, 64);
  lr_ = new QDoubleSpinBox(this);
  lr_->setDecimals(5);
  lr_->setRange(0.0, 100.0);
  lr_->setSingleStep(0.0005);
  connect(lr_, &QDoubleSpinBox::valueChanged, this, &ExperimentPanel::revalidate);
  prefetch_ = new QCheckBox(tr("prefetch the next unit"), this);
  connect(prefetch_, &QCheckBox::toggled, this, &ExperimentPanel::revalidate);
  budget_ = new QLineEdit(this);
  budget_->setPlaceholderText(tr("none, or e.g. 3MiB"));
  connect(budget_, &QLineEdit::textChanged, this, &ExperimentPanel::revalidate);
  form->addRow(tr("Strategy"), strategy_);
  form->addRow(tr("Ranks"), ranks_);
  form->addRow(tr("Device"), device_);
  form->addRow(tr("Layers"), layers_);
  form->addRow(tr("Hidden size"), hidden_);
  form->addRow(tr("Vocabulary"), vocab_);
  form->addRow(tr("Batch"), batch_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(tr("Seed"), seed_);
  form->addRow(tr("Learning rate"), lr_);
  form->addRow(tr("FSDP sharding"), sharding_);
  form->addRow(QString(), prefetch_);
  form->addRow(tr("Schedule"), schedule_);
  form->addRow(tr("Micro-batches"), micro_);
  form->addRow(tr("Virtual stages"), virtual_);
  form->addRow(tr("Memory budget"), budget_);
  l->addLayout(form);
  issues_ = new QLabel(this);
  issues_->setWordWrap(true);
  issues_->setObjectName(QStringLiteral("issues"));
  issues_->setStyleSheet(QStringLiteral("color: #D55E00;"));
  l->addWidget(issues_);
  auto* row = new QHBoxLayout;
  run_ = new QPushButton(tr("Run"), this);
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setEnabled(false);
  connect(run_, &QPushButton::clicked, this, [this] { Q_EMIT runRequested(spec()); });
  connect(stop_, &QPushButton::clicked, this, &ExperimentPanel::stopRequested);
  row->addWidget(run_);
  row->addWidget(stop_);
  l->addLayout(row);
  l->addStretch();
  setSpec(JobSpec{});
}

JobSpec ExperimentPanel::spec() const {
  JobSpec s;
  s.strategy = strategy_->currentText();
  s.sharding = sharding_->currentText();
  s.schedule = schedule_->currentText();
  s.device = device_->currentText();
  s.ranks = ranks_->value();
  s.layers = layers_->value();
  s.hidden = hidden_->value();
  s.vocab = vocab_->value();
  s.batch = batch_->value();
  s.steps = steps_->value();
  s.seed = seed_->value();
  s.microbatches = micro_->value();
  s.virtualStages = virtual_->value();
  s.lr = lr_->value();
  s.prefetch = prefetch_->isChecked();
  s.memoryBudget = budget_->text().trimmed();
  return s;
}

void ExperimentPanel::setSpec(const JobSpec& s) {
  strategy_->setCurrentText(s.strategy);
  sharding_->setCurrentText(s.sharding);
  schedule_->setCurrentText(s.schedule);
  device_->setCurrentText(s.device);
  ranks_->setValue(s.ranks);
  layers_->setValue(s.layers);
  hidden_->setValue(s.hidden);
  vocab_->setValue(s.vocab);
  batch_->setValue(s.batch);
  steps_->setValue(s.steps);
  seed_->setValue(s.seed);
  micro_->setValue(s.microbatches);
  virtual_->setValue(s.virtualStages);
  lr_->setValue(s.lr);
  prefetch_->setChecked(s.prefetch);
  budget_->setText(s.memoryBudget);
  revalidate();
}

QString ExperimentPanel::issuesText() const { return issues_->text(); }

void ExperimentPanel::setRunning(bool running) {
  running_ = running;
  stop_->setEnabled(running);
  revalidate();
}

void ExperimentPanel::revalidate() {
  const auto s = spec();
  const bool fsdp = s.strategy == QLatin1String("fsdp"), pipe = s.strategy == QLatin1String("pipeline");
  sharding_->setEnabled(fsdp);
  prefetch_->setEnabled(fsdp);
  schedule_->setEnabled(pipe);
  micro_->setEnabled(pipe);
  virtual_->setEnabled(pipe && s.schedule == QLatin1String("interleaved"));
  const auto issues = s.validate();
  QStringList lines;
  for (const auto& i : issues) lines << QStringLiteral("• ") + i.text();
  issues_->setText(lines.join(QLatin1Char('\n')));
  run_->setEnabled(issues.isEmpty() && !running_);
  run_->setToolTip(issues.isEmpty() ? tr("Run this job with shardlab-run") : tr("Fix the options named below first"));
}
