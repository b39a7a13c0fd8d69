#include "views/LedgerView.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "models/MemoryLedger.h"
#include "views/Palette.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace shardlab::app {

namespace st = shardlab::trace;

LedgerView::LedgerView(const TraceModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  auto* top = new QHBoxLayout;
  // Which run: shown only while there is a comparison run.
  runRow_ = new QWidget(this);
  auto* runLayout = new QHBoxLayout(runRow_);
  runLayout->setContentsMargins(0, 0, 0, 0);
  auto* runLabel = new QLabel(tr("Run"), runRow_);
  run_ = new QComboBox(runRow_);
  run_->setObjectName(QStringLiteral("ledgerRun"));
  runLabel->setBuddy(run_);
  runLayout->addWidget(runLabel);
  runLayout->addWidget(run_);
  runRow_->hide();
  top->addWidget(runRow_);
  auto* label = new QLabel(tr("Rank"), this);
  rank_ = new QComboBox(this);
  rank_->setObjectName(QStringLiteral("ledgerRank"));
  label->setBuddy(rank_);
  top->addWidget(label);
  top->addWidget(rank_);
  top->addStretch();
  v->addLayout(top);
  text_ = new QTextBrowser(this);
  text_->setObjectName(QStringLiteral("ledgerText"));
  v->addWidget(text_);
  connect(rank_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(run_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
}

int LedgerView::rank() const { return std::max(0, rank_->currentIndex()); }

void LedgerView::setComparison(const TraceModel* other, const QString& labelA, const QString& labelB) {
  if (other_ != other) {
    if (other_) disconnect(other_, nullptr, this, nullptr);
    other_ = other;
    // A cleared comparison run is gone: its labels must not name the next one.
    if (other_)
      connect(other_, &TraceModel::reset, this, [this] {
        if (other_ && other_->isEmpty()) setComparison(nullptr, {}, {});
        else if (showsComparisonRun()) rebuild();
      });
  }
  labelA_ = labelA;
  labelB_ = labelB;
  rebuild();
}

bool LedgerView::offersComparison() const { return other_ && !other_->isEmpty(); }

bool LedgerView::showsComparisonRun() const { return offersComparison() && run_->currentIndex() == 1; }

void LedgerView::showComparisonRun(bool runB) {
  if (offersComparison()) run_->setCurrentIndex(runB ? 1 : 0);
}

const TraceModel& LedgerView::shownModel() const { return showsComparisonRun() ? *other_ : model_; }

void LedgerView::rebuild() {
  // Set a combo's items to `items` (untouched when they already are), keeping its index.
  auto setItems = [](QComboBox* box, const QStringList& items) {
    QStringList now;
    for (int i = 0; i < box->count(); ++i) now << box->itemText(i);
    if (now == items) return;
    const QSignalBlocker block(box);
    const int keep = box->currentIndex();
    box->clear();
    box->addItems(items);
    box->setCurrentIndex(std::clamp(keep, 0, std::max(0, static_cast<int>(items.size()) - 1)));
  };
  setItems(run_, offersComparison() ? QStringList{labelA_.isEmpty() ? tr("run A") : labelA_,
                                                  labelB_.isEmpty() ? tr("run B") : labelB_}
                                    : QStringList{});
  runRow_->setVisible(offersComparison());
  const TraceModel& model = shownModel();
  QStringList ranks;
  for (int r = 0; r < model.rankCount(); ++r) ranks << model.rankLabel(r);
  setItems(rank_, ranks);
  text_->setHtml(awaitingRun_ && model_.isEmpty()
                     ? tr("<p>No run yet for this lesson: it runs once you have made your prediction (or chosen to run "
                          "without one).</p>")
                     : html(model, rank()));
}

void LedgerView::setAwaitingRun(bool awaiting) {
  if (awaiting == awaitingRun_) return;
  awaitingRun_ = awaiting;
  rebuild();
}

QString LedgerView::shownHtml() const { return text_->toHtml(); }

QString LedgerView::html(const TraceModel& model, int rank) {
  if (model.isEmpty() || !model.config()) return tr("<p>No run yet.</p>");
  const Ledger ledger = memoryLedger(model, rank);
  const double psi = ledger.psi;
  auto inPsi = [&](double bytes) { return psiMultiple(bytes, psi); };
  QString h;
  if (ledger.imported)
    h += tr("<p>Imported from a PyTorch profiler trace: the profiler records how much each rank had allocated, not "
            "what for, nor the model's size, so there is no Ψ arithmetic here: only the rank's total, at the end of "
            "its last step and at its peak.</p>");
  else if (ledger.applies)
    h += tr("<p><b>%1</b> · Ψ = %2 parameters · D = %3 · %n rank(s)</p>", nullptr, model.rankCount())
             .arg(ledger.stage.toHtmlEscaped(), QLocale().toString(static_cast<qlonglong>(psi)))
             .arg(ledger.degree);
  else
    h += tr("<p>The Ψ arithmetic is data parallelism's (DDP, FSDP): here only what the rank measured is shown.</p>");
  if (const auto& stop = ledger.outOfMemory) {
    // No step ended to measure at: say how the run ended and measure what was held then.
    const QString what = Format::categoryName(stop->category) +
                         (stop->unit.isEmpty() ? QString() : tr(" of %1").arg(stop->unit));
    const QString when = stop->step < 0 ? tr("The run ended out of memory before its first step")
                                        : tr("The run ended out of memory in step %1").arg(stop->step);
    h += QStringLiteral("<p style=\"color:%1\"><b>%2</b>: %3</p>")
             .arg(Palette::problem().name(), when.toHtmlEscaped(),
                  tr("rank %1 needed %2 more for %3 while holding %4; the budget is %5. Below: what %6 held then.")
                      .arg(stop->reportingRank)
                      .arg(Format::bytes(stop->needed), what, Format::bytes(stop->holding),
                           Format::bytes(stop->budget), model.rankLabel(rank))
                      .toHtmlEscaped());
  }
  // Every bar to one scale: the largest of what was measured and what the formula says.
  double scale = 1;
  for (const auto& l : ledger.lines) scale = std::max({scale, static_cast<double>(l.measured), l.formulaBytes.value_or(0)});
  auto bar = [&](double bytes, const QColor& colour) {
    const int pct = std::clamp(static_cast<int>(std::lround(100.0 * bytes / scale)), 0, 100);
    if (pct == 0) return QStringLiteral("<table cellspacing=0 cellpadding=0 width=100%><tr><td>&nbsp;</td></tr></table>");
    return QStringLiteral("<table cellspacing=0 cellpadding=0 width=100%><tr><td width=%1% bgcolor=%2>&nbsp;</td>"
                          "<td width=%3%></td></tr></table>")
        .arg(pct)
        .arg(colour.name())
        .arg(100 - pct);
  };
  h += QStringLiteral("<table border=1 cellspacing=0 cellpadding=4 width=100%><tr><th>%1</th><th width=22%>%2</th>"
                      "<th width=22%>%3</th><th>%4</th></tr>")
           .arg(tr("part"), tr("measured"), tr("Ψ arithmetic"), tr("the difference"));
  for (const auto& l : ledger.lines) {
    QString name = Format::categoryName(l.category);
    if (l.also != st::Category::Count) name += QStringLiteral(" + ") + Format::categoryName(l.also);
    name += !l.persistent          ? tr("<br><small>peak</small>")
            : ledger.outOfMemory ? tr("<br><small>when the run stopped</small>")
                                 : tr("<br><small>at the end of a step</small>");
    const QString measured = bar(static_cast<double>(l.measured), Palette::category(l.category)) +
                             Format::bytes(l.measured) + (psi > 0 && l.persistent ? QStringLiteral(" = ") + inPsi(static_cast<double>(l.measured)) : QString());
    const QString formula = l.formulaBytes ? bar(*l.formulaBytes, Palette::category(l.category).lighter(150)) + l.formula.toHtmlEscaped() +
                                                 QStringLiteral(" = ") + Format::bytes(static_cast<qint64>(std::llround(*l.formulaBytes)))
                                           : tr("—");
    h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>").arg(name, measured, formula, l.why.toHtmlEscaped());
  }
  if (const auto f = ledger.formulaPersistent())
    h += QStringLiteral("<tr><td><b>%1</b></td><td><b>%2 = %3</b></td><td><b>%4 = %5</b></td><td></td></tr>")
             .arg(tr("persistent"), Format::bytes(ledger.measuredPersistent()), inPsi(static_cast<double>(ledger.measuredPersistent())),
                  inPsi(*f), Format::bytes(static_cast<qint64>(std::llround(*f))));
  h += QStringLiteral("</table>");
  if (ledger.applies) {
    h += tr("<p>ShardLab trains in fp32 and its parameters are the master copy, so the textbook's 16Ψ at mixed "
            "precision (2Ψ bf16 parameters + 2Ψ bf16 gradients + 12Ψ fp32 master, momentum and variance) is here "
            "4Ψ parameters + 4Ψ gradients + 8Ψ AdamW moments: the same total. A part is divided by D where the run "
            "keeps only its own slice of it between steps: the optimizer state under ZeRO-1; the parameters, the "
            "gradients and the optimizer state under SHARD_GRAD_OP, FULL_SHARD and HYBRID_SHARD; nothing under DDP "
            "and NO_SHARD (docs/sharding.md).</p>");
    if (model.config()->strategy == shardlab::StrategyKind::Fsdp && model.config()->sharding == shardlab::Sharding::GradOp)
      h += tr("<p>SHARD_GRAD_OP is only close to ZeRO-2: ZeRO-2 keeps the parameters replicated (4Ψ + 12Ψ/D), "
              "SHARD_GRAD_OP also shards them between steps (16Ψ/D), and this ledger counts them so.</p>");
  }
  return h;
}

} // namespace shardlab::app
