#include "views/Palette.h"

#include <QCoreApplication>

namespace shardlab::app {

namespace st = shardlab::trace;

namespace {
// Okabe & Ito (2008): black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple.
const QColor kOrange(0xE6, 0x9F, 0x00), kSky(0x56, 0xB4, 0xE9), kGreen(0x00, 0x9E, 0x73), kYellow(0xF0, 0xE4, 0x42),
    kBlue(0x00, 0x72, 0xB2), kVermillion(0xD5, 0x5E, 0x00), kPurple(0xCC, 0x79, 0xA7), kGrey(0x99, 0x99, 0x99);
} // namespace

QColor Palette::category(st::Category c) {
  switch (c) {
  case st::Category::ParamShard: return kBlue;
  case st::Category::ParamReplica: return kSky;
  case st::Category::GatheredParams: return kOrange;
  case st::Category::Grads: return kVermillion;
  case st::Category::GradShard: return kPurple;
  case st::Category::OptimizerState: return kGreen;
  case st::Category::Activations: return kYellow;
  case st::Category::CommBuffers: return kGrey;
  // Not one of ShardLab's categories: black, the one Okabe-Ito colour the others leave.
  case st::Category::Unknown: return QColor(0x33, 0x33, 0x33);
  default: return kGrey;
  }
}

QColor Palette::kind(st::Kind k) {
  switch (k) {
  case st::Kind::Forward: return kSky;
  case st::Kind::Backward: return kOrange;
  case st::Kind::BackwardInput: return kOrange;
  case st::Kind::BackwardWeight: return kOrange.darker(135);
  case st::Kind::Optimizer: return kGreen;
  case st::Kind::AllGather: return kBlue;
  case st::Kind::ReduceScatter: return kVermillion;
  case st::Kind::AllReduce: return kPurple;
  case st::Kind::Send: return kYellow;
  case st::Kind::Recv: return kYellow.darker(130);
  case st::Kind::Broadcast: return kBlue.lighter(140);
  default: return kGrey;
  }
}

QColor Palette::ok() { return kGreen; }
QColor Palette::problem() { return kVermillion; }
QColor Palette::accent() { return kBlue; }

QColor Palette::idle(bool dark) { return dark ? QColor(0x80, 0x40, 0x40, 110) : QColor(0xD5, 0x5E, 0x00, 55); }
// Dense dots, darker than any op colour, unlike the idle hatching: the op was running
// but its rank had no core.
QRectF Palette::coreWaitPart(const shardlab::trace::Event& op, const QRectF& block) {
  const auto wall = op.t1 - op.t0;
  if (op.cpuNs < 0 || wall <= 0 || op.cpuNs >= wall) return {};
  const double share = static_cast<double>(wall - op.cpuNs) / static_cast<double>(wall);
  return QRectF(block.right() - block.width() * share, block.top(), block.width() * share, block.height());
}

QBrush Palette::coreWait(bool dark) {
  return QBrush(dark ? QColor(0xF0, 0xF0, 0xF0, 200) : QColor(0x20, 0x20, 0x20, 200), Qt::Dense4Pattern);
}

QPalette Palette::light() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(0xF4, 0xF4, 0xF2));
  p.setColor(QPalette::WindowText, QColor(0x1A, 0x1A, 0x1A));
  p.setColor(QPalette::Base, Qt::white);
  p.setColor(QPalette::AlternateBase, QColor(0xEC, 0xEC, 0xEA));
  p.setColor(QPalette::Text, QColor(0x1A, 0x1A, 0x1A));
  p.setColor(QPalette::Button, QColor(0xE8, 0xE8, 0xE6));
  p.setColor(QPalette::ButtonText, QColor(0x1A, 0x1A, 0x1A));
  p.setColor(QPalette::Highlight, kBlue);
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::ToolTipBase, QColor(0xFF, 0xFF, 0xE8));
  p.setColor(QPalette::ToolTipText, Qt::black);
  p.setColor(QPalette::Mid, QColor(0xB0, 0xB0, 0xB0));
  p.setColor(QPalette::PlaceholderText, QColor(0x70, 0x70, 0x70));
  return p;
}

QPalette Palette::dark() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(0x23, 0x25, 0x29));
  p.setColor(QPalette::WindowText, QColor(0xE6, 0xE6, 0xE6));
  p.setColor(QPalette::Base, QColor(0x1A, 0x1B, 0x1E));
  p.setColor(QPalette::AlternateBase, QColor(0x2C, 0x2E, 0x33));
  p.setColor(QPalette::Text, QColor(0xE6, 0xE6, 0xE6));
  p.setColor(QPalette::Button, QColor(0x30, 0x33, 0x38));
  p.setColor(QPalette::ButtonText, QColor(0xE6, 0xE6, 0xE6));
  p.setColor(QPalette::Highlight, kSky.darker(130));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::ToolTipBase, QColor(0x30, 0x33, 0x38));
  p.setColor(QPalette::ToolTipText, QColor(0xE6, 0xE6, 0xE6));
  p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
  p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
  return p;
}

bool Palette::isDark(const QPalette& p) { return p.color(QPalette::Window).lightness() < 128; }

QPalette Palette::controls(const QPalette& p) {
  QPalette c = p;
  // Fusion's outline is the window colour darker(140); its groove the button colour at 90 %.
  c.setColor(QPalette::Window, QColor(0xB4, 0xB8, 0xBE));
  c.setColor(QPalette::Button, QColor(0x5C, 0x60, 0x68));
  return c;
}

} // namespace shardlab::app
