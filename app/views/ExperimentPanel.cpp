#include "views/ExperimentPanel.h"

#include "models/JobText.h"
#include "models/LessonFlow.h"
#include "views/Palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace shardlab::app {

namespace {

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// The enum's names, as the engine spells them, in the engine's order.
template <class E> QStringList names() {
  QStringList out;
  for (const auto& [value, name] : shardlab::EnumNames<E>::values) out << text(name);
  return out;
}

// "3MiB" for 3145728: the largest binary unit that divides the size, as parseBytes reads it back.
QString sizeText(std::int64_t bytes) {
  for (const auto& [unit, size] : {std::pair{"GiB", 1LL << 30}, std::pair{"MiB", 1LL << 20}, std::pair{"KiB", 1LL << 10}})
    if (bytes % size == 0) return QString::number(bytes / size) + QLatin1String(unit);
  return QString::number(bytes);
}

std::string current(const QComboBox* c) { return c->currentText().toStdString(); }

} // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  form_ = form;
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
  strategy_ = combo(names<shardlab::StrategyKind>());
  // Each sharding strategy with its PyTorch name and ZeRO stage; the item's data is the engine's name.
  sharding_ = new QComboBox(this);
  for (const auto& [value, name] : shardlab::EnumNames<shardlab::Sharding>::values)
    sharding_->addItem(QStringLiteral("%1 · %2 (ZeRO-%3)")
                           .arg(text(name), text(shardlab::pytorchName(value)))
                           .arg(shardlab::zeroStage(value)),
                       text(name));
  connect(sharding_, &QComboBox::currentTextChanged, this, &ExperimentPanel::revalidate); // once it has its items
  // The longest item ("optimizer · ZeroRedundancyOptimizer (ZeRO-1)") must not widen the form.
  sharding_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sharding_->setMinimumContentsLength(16);
  backwardPrefetch_ = combo(names<shardlab::BackwardPrefetch>());
  schedule_ = combo(names<shardlab::Schedule>());
  device_ = combo(names<shardlab::DeviceKind>());
  ranks_ = spin(0, 1024);
  layers_ = spin(0, 100000);
  hidden_ = spin(0, 100000);
  vocab_ = spin(0, 10000000);
  batch_ = spin(0, 100000);
  steps_ = spin(0, 100000);
  micro_ = spin(0, 1024);
  virtual_ = spin(0, 64);
  shardGroup_ = spin(0, 1024);
  shardGroup_->setSpecialValueText(tr("none"));  // 0: not given
  limitAllGathers_ = spin(-1, 1024);
  limitAllGathers_->setSpecialValueText(tr("no limit"));  // -1: none; 0 is typed and refused by the rule
  // A seed is any 64-bit unsigned integer: typed as text, read by JobConfig::fromJson.
  seed_ = new QLineEdit(this);
  seed_->setObjectName(QStringLiteral("seed"));
  connect(seed_, &QLineEdit::textChanged, this, &ExperimentPanel::revalidate);
  lr_ = new QDoubleSpinBox(this);
  lr_->setDecimals(5);
  lr_->setRange(0.0, 100.0);
  lr_->setSingleStep(0.0005);
  connect(lr_, &QDoubleSpinBox::valueChanged, this, &ExperimentPanel::revalidate);
  // How long a collective or a message may wait before the ranks' watchdogs declare the
  // job hung and stop it (the engine's collective_timeout; 0 is refused by its rule).
  hangTimeout_ = new QDoubleSpinBox(this);
  hangTimeout_->setObjectName(QStringLiteral("collectiveTimeout"));
  hangTimeout_->setDecimals(1);
  hangTimeout_->setRange(0.0, 86400.0);
  hangTimeout_->setSuffix(tr(" s"));
  hangTimeout_->setToolTip(tr("Seconds a collective or a message may wait before the job is declared hung and stopped "
                              "(collective_timeout)"));
  connect(hangTimeout_, &QDoubleSpinBox::valueChanged, this, &ExperimentPanel::revalidate);
  forwardPrefetch_ = new QCheckBox(tr("gather the next unit early"), this);
  connect(forwardPrefetch_, &QCheckBox::toggled, this, &ExperimentPanel::revalidate);
  // The knobs that trade memory for compute or communication (docs/sharding.md): two
  // per row, so that the form keeps its height at 1280x720.
  checkpoint_ = new QCheckBox(tr("recompute in the backward"), this);
  checkpoint_->setObjectName(QStringLiteral("checkpointActivations"));
  connect(checkpoint_, &QCheckBox::toggled, this, &ExperimentPanel::revalidate);
  accumulate_ = spin(0, 1024);
  accumulate_->setObjectName(QStringLiteral("accumulate"));
  noSync_ = new QCheckBox(QStringLiteral("no_sync"), this);
  noSync_->setObjectName(QStringLiteral("noSync"));
  noSync_->setToolTip(tr("Reduce the gradients once, at the last micro-step (PyTorch's no_sync)"));
  connect(noSync_, &QCheckBox::toggled, this, &ExperimentPanel::revalidate);
  paramDtype_ = combo(names<shardlab::Dtype>());
  paramDtype_->setObjectName(QStringLiteral("paramDtype"));
  paramDtype_->setToolTip(tr("param_dtype: the type the all-gathers carry (master shards stay fp32)"));
  reduceDtype_ = combo(names<shardlab::Dtype>());
  reduceDtype_->setObjectName(QStringLiteral("reduceDtype"));
  reduceDtype_->setToolTip(tr("reduce_dtype: the type gradients are reduce-scattered in"));
  auto pair = [this](QWidget* a, QWidget* b) {
    auto* w = new QWidget(this);
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(a, 1);
    h->addWidget(b, 1);
    return w;
  };
  budget_ = new QLineEdit(this);
  budget_->setObjectName(QStringLiteral("memoryBudget"));
  budget_->setPlaceholderText(tr("none, or e.g. 3MiB"));
  connect(budget_, &QLineEdit::textChanged, this, &ExperimentPanel::revalidate);
  // The device mesh (docs/mesh.md), as --mesh takes it: empty runs the strategy over every rank.
  mesh_ = new QLineEdit(this);
  mesh_->setObjectName(QStringLiteral("mesh"));
  mesh_->setPlaceholderText(tr("none, or e.g. dp=2,tp=2"));
  mesh_->setToolTip(tr("The ranks as a grid of dimensions dp, pp and tp, the last varying fastest; the sizes "
                       "multiply to the ranks"));
  connect(mesh_, &QLineEdit::textChanged, this, &ExperimentPanel::revalidate);
  // Open MPI's hostfile (docs/multi-host.md): empty runs every rank on this machine.
  auto* hostfileRow = new QWidget(this);
  hostfile_ = new QLineEdit(hostfileRow);
  hostfile_->setObjectName(QStringLiteral("hostfile"));
  hostfile_->setPlaceholderText(tr("none: every rank on this machine"));
  hostfile_->setToolTip(tr("An Open MPI hostfile, one machine per line (lab-pc-01 slots=4), to spread the ranks "
                           "over the machines of a lab room"));
  connect(hostfile_, &QLineEdit::textChanged, this, &ExperimentPanel::revalidate);
  auto* chooseHostfile = new QPushButton(tr("Choose…"), hostfileRow);
  chooseHostfile->setObjectName(QStringLiteral("chooseHostfile"));
  connect(chooseHostfile, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Hostfile"), hostfile_->text());
    if (!file.isEmpty()) hostfile_->setText(file);
  });
  auto* hostfileLayout = new QHBoxLayout(hostfileRow);
  hostfileLayout->setContentsMargins(0, 0, 0, 0);
  hostfileLayout->addWidget(hostfile_, 1);
  hostfileLayout->addWidget(chooseHostfile);
  form->addRow(tr("Strategy"), strategy_);
  form->addRow(tr("Ranks"), ranks_);
  form->addRow(tr("Mesh"), mesh_);
  form->addRow(tr("Device"), device_);
  form->addRow(tr("Layers"), layers_);
  form->addRow(tr("Hidden size"), hidden_);
  form->addRow(tr("Vocabulary"), vocab_);
  form->addRow(tr("Batch"), batch_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(tr("Seed"), seed_);
  form->addRow(tr("Learning rate"), lr_);
  form->addRow(tr("FSDP sharding"), sharding_);
  form->addRow(tr("Shard group (hybrid)"), shardGroup_);
  form->addRow(tr("Backward prefetch"), backwardPrefetch_);
  form->addRow(tr("Forward prefetch"), forwardPrefetch_);
  form->addRow(tr("Gathered units at most"), limitAllGathers_);
  form->addRow(tr("Precision (param, reduce)"), pair(paramDtype_, reduceDtype_));
  form->addRow(tr("Activation checkpointing"), checkpoint_);
  form->addRow(tr("Micro-steps per step"), pair(accumulate_, noSync_));
  form->addRow(tr("Schedule"), schedule_);
  form->addRow(tr("Micro-batches"), micro_);
  form->addRow(tr("Virtual stages"), virtual_);
  form->addRow(tr("Memory budget"), budget_);
  form->addRow(tr("Hang timeout"), hangTimeout_);
  form->addRow(tr("Hostfile"), hostfileRow);
  // The fields scroll where the dock is short (1280x720 beside the log); what the form
  // says is wrong and the Run and Stop buttons stay below them, always in view.
  auto* fields = new QWidget(this);
  fields->setLayout(form);
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("experimentFields"));
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(fields);
  l->addWidget(scroll, 1);
  issues_ = new QLabel(this);
  issues_->setWordWrap(true);
  issues_->setObjectName(QStringLiteral("issues"));
  issues_->setStyleSheet(QStringLiteral("color: %1;").arg(Palette::problem().name()));
  l->addWidget(issues_);
  auto* row = new QHBoxLayout;
  run_ = new QPushButton(tr("Run"), this);
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setEnabled(false);
  connect(run_, &QPushButton::clicked, this, [this] { Q_EMIT runRequested(config()); });
  connect(stop_, &QPushButton::clicked, this, &ExperimentPanel::stopRequested);
  row->addWidget(run_);
  row->addWidget(stop_);
  l->addLayout(row);
  setConfig(shardlab::JobConfig{});
}

nlohmann::json ExperimentPanel::formJson() const {
  nlohmann::json j{{"strategy", current(strategy_)}, {"sharding", sharding_->currentData().toString().toStdString()},
                   {"schedule", current(schedule_)},
                   {"device", current(device_)},     {"ranks", ranks_->value()},        {"layers", layers_->value()},
                   {"hidden", hidden_->value()},     {"vocab", vocab_->value()},        {"batch", batch_->value()},
                   {"steps", steps_->value()},       {"microbatches", micro_->value()}, {"virtual_stages", virtual_->value()},
                   {"lr", lr_->value()},
                   {"collective_timeout", hangTimeout_->value()},
                   {"shard_group", shardGroup_->value()},
                   {"backward_prefetch", current(backwardPrefetch_)},
                   {"forward_prefetch", forwardPrefetch_->isChecked()},
                   {"limit_all_gathers", limitAllGathers_->value() < 0 ? nlohmann::json() : nlohmann::json(limitAllGathers_->value())},
                   {"param_dtype", current(paramDtype_)},
                   {"reduce_dtype", current(reduceDtype_)},
                   {"checkpoint_activations", checkpoint_->isChecked()},
                   {"accumulate", accumulate_->value()},
                   {"no_sync", noSync_->isChecked()}};
  bool isNumber = false;
  const QString seed = seed_->text().trimmed();
  const qulonglong seedValue = seed.toULongLong(&isNumber);
  j["seed"] = isNumber ? nlohmann::json(static_cast<std::uint64_t>(seedValue)) : nlohmann::json(seed.toStdString());
  const QString budget = budget_->text().trimmed();
  j["memory_budget"] = budget.isEmpty() ? nlohmann::json(0) : nlohmann::json(budget.toStdString());  // 0: none
  j["hostfile"] = hostfile_->text().trimmed().toStdString();  // empty: this machine
  j["mesh"] = mesh_->text().trimmed().toStdString();          // empty: no mesh
  return j;
}

shardlab::JobConfig ExperimentPanel::read(std::vector<shardlab::JobIssue>& issues) const {
  auto config = shardlab::JobConfig::fromJson(formJson(), issues, base_);
  // A field greyed for this strategy holds what the learner typed for another: the job
  // gets its default, which the engine's only-strategy rule accepts.
  config.resetOtherStrategiesOptions();
  for (auto& i : config.validate()) issues.push_back(std::move(i));
  return config;
}

shardlab::JobConfig ExperimentPanel::config() const {
  std::vector<shardlab::JobIssue> ignored;
  return read(ignored);
}

std::vector<shardlab::JobIssue> ExperimentPanel::issues() const {
  std::vector<shardlab::JobIssue> out;
  read(out);
  return out;
}

void ExperimentPanel::setConfig(const shardlab::JobConfig& c) {
  base_ = c;
  strategy_->setCurrentText(text(shardlab::name(c.strategy)));
  sharding_->setCurrentIndex(sharding_->findData(text(shardlab::name(c.sharding))));
  backwardPrefetch_->setCurrentText(text(shardlab::name(c.backwardPrefetch)));
  shardGroup_->setValue(c.shardGroup);
  limitAllGathers_->setValue(c.limitAllGathers ? *c.limitAllGathers : -1);
  schedule_->setCurrentText(text(shardlab::name(c.schedule)));
  device_->setCurrentText(text(shardlab::name(c.device)));
  ranks_->setValue(c.ranks);
  layers_->setValue(c.layers);
  hidden_->setValue(c.hidden);
  vocab_->setValue(c.vocab);
  batch_->setValue(c.batch);
  steps_->setValue(c.steps);
  seed_->setText(QString::number(c.seed));
  micro_->setValue(c.microbatches);
  virtual_->setValue(c.virtualStages);
  lr_->setValue(c.lr);
  hangTimeout_->setValue(c.collectiveTimeout);
  forwardPrefetch_->setChecked(c.forwardPrefetch);
  paramDtype_->setCurrentText(text(shardlab::name(c.paramDtype)));
  reduceDtype_->setCurrentText(text(shardlab::name(c.reduceDtype)));
  checkpoint_->setChecked(c.checkpointActivations);
  accumulate_->setValue(c.accumulate);
  noSync_->setChecked(c.noSync);
  budget_->setText(c.memoryBudget > 0 ? sizeText(c.memoryBudget) : QString());
  hostfile_->setText(QString::fromStdString(c.hostfile));
  mesh_->setText(QString::fromStdString(c.mesh.text()));
  revalidate();
}

QString ExperimentPanel::issuesText() const { return issues_->text(); }

void ExperimentPanel::follow(LessonFlow& flow) {
  for (JobRunner* runner : {&flow.runner(), &flow.comparisonRunner()})
    connect(runner, &JobRunner::started, this, [this] { setRunning(true); });
  connect(&flow, &LessonFlow::jobStarting, this, &ExperimentPanel::setConfig);
  const auto ended = [this, &flow] { setRunning(flow.isRunning()); };
  connect(&flow, &LessonFlow::runFinished, this, ended);
  connect(&flow, &LessonFlow::comparisonFinished, this, ended);
}

void ExperimentPanel::setRunning(bool running) {
  running_ = running;
  stop_->setEnabled(running);
  revalidate();
}

void ExperimentPanel::revalidate() {
  using shardlab::StrategyKind;
  std::vector<shardlab::JobIssue> issues;
  const auto c = read(issues);
  const bool fsdp = c.strategy == StrategyKind::Fsdp, pipe = c.strategy == StrategyKind::Pipeline;
  sharding_->setEnabled(fsdp);
  shardGroup_->setEnabled(fsdp && c.sharding == shardlab::Sharding::Hybrid);
  backwardPrefetch_->setEnabled(fsdp);
  forwardPrefetch_->setEnabled(fsdp);
  limitAllGathers_->setEnabled(fsdp);
  const bool dataParallel = fsdp || c.strategy == StrategyKind::Ddp;
  paramDtype_->setEnabled(fsdp);
  reduceDtype_->setEnabled(fsdp);
  checkpoint_->setEnabled(dataParallel);
  accumulate_->setEnabled(dataParallel);
  noSync_->setEnabled(dataParallel);
  schedule_->setEnabled(pipe);
  micro_->setEnabled(pipe);
  virtual_->setEnabled(pipe && c.schedule == shardlab::Schedule::Interleaved);
  QStringList lines;
  for (const auto& i : issues) lines << QStringLiteral("• ") + issueText(i);
  issues_->setText(lines.join(QLatin1Char('\n')));
  // A field that does not apply to this job is greyed with its label, so the form reads
  // at a glance which options count.
  // A row of two fields (precision, micro-steps) applies while either does.
  const auto applies = [](const QWidget* w) {
    if (!w->isEnabled()) return false;
    const auto inputs = w->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
    return inputs.isEmpty() || std::any_of(inputs.begin(), inputs.end(), [](const QWidget* input) { return input->isEnabled(); });
  };
  for (int row = 0; row < form_->rowCount(); ++row) {
    auto* field = form_->itemAt(row, QFormLayout::FieldRole);
    auto* label = form_->itemAt(row, QFormLayout::LabelRole);
    if (field && field->widget() && label && label->widget()) label->widget()->setEnabled(applies(field->widget()));
  }
  run_->setEnabled(issues.empty() && !running_);
  // Disabled by the form's errors, the button says so in words, not by a shade alone.
  run_->setText(issues.empty() || running_ ? tr("Run") : tr("Run: fix the options named below"));
  run_->setToolTip(issues.empty() ? tr("Run this job with shardlab-run") : tr("Fix the options named below first"));
}

} // namespace shardlab::app
