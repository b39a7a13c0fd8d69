#include "views/Appearance.h"

#include "models/AppSettings.h"
#include "views/Palette.h"

#include <QActionGroup>
#include <QApplication>
#include <QFont>
#include <QMenu>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>

#include <cmath>

namespace shardlab::app {

namespace {
// Fusion, with the check boxes, radio buttons and sliders a projector needs: indicators as
// large as the text (1.5× presenting), and in the dark theme drawn over a palette whose
// outlines and grooves stand out from the window (Fusion derives both from the window and
// button colours, nearly black there: Palette::controls).
class AppStyle : public QProxyStyle {
public:
  explicit AppStyle(double scale) : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))), scale_(scale) {}
  int pixelMetric(PixelMetric metric, const QStyleOption* option, const QWidget* widget) const override {
    const int base = QProxyStyle::pixelMetric(metric, option, widget);
    switch (metric) {
    case PM_IndicatorWidth:
    case PM_IndicatorHeight:
    case PM_ExclusiveIndicatorWidth:
    case PM_ExclusiveIndicatorHeight:
    case PM_SliderThickness:
    case PM_SliderControlThickness:
    case PM_SliderLength:
      return static_cast<int>(std::lround(base * scale_));
    default: return base;
    }
  }
  void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
    if ((element == PE_IndicatorCheckBox || element == PE_IndicatorRadioButton) && Palette::isDark(option->palette)) {
      if (const auto* button = qstyleoption_cast<const QStyleOptionButton*>(option)) {
        QStyleOptionButton copy(*button);
        copy.palette = Palette::controls(option->palette);
        QProxyStyle::drawPrimitive(element, &copy, painter, widget);
        return;
      }
    }
    QProxyStyle::drawPrimitive(element, option, painter, widget);
  }
  void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                          const QWidget* widget) const override {
    if (control == CC_Slider && Palette::isDark(option->palette))
      if (const auto* slider = qstyleoption_cast<const QStyleOptionSlider*>(option)) {
        QStyleOptionSlider copy(*slider);
        copy.palette = Palette::controls(option->palette);
        QProxyStyle::drawComplexControl(control, &copy, painter, widget);
        return;
      }
    QProxyStyle::drawComplexControl(control, option, painter, widget);
  }

private:
  double scale_;
};
} // namespace

void Appearance::apply(QApplication& app) {
  // The font's size before any scaling: each scale applies to it, not to the last one.
  static double basePointSize = 0.0;
  app.setStyle(new AppStyle(AppSettings::controlScale()));
  app.setPalette(AppSettings::theme() == QLatin1String("dark") ? Palette::dark() : Palette::light());
  if (basePointSize <= 0) basePointSize = app.font().pointSizeF() > 0 ? app.font().pointSizeF() : 10.0;
  QFont f = app.font();
  f.setPointSizeF(basePointSize * AppSettings::fontScale() * (AppSettings::presentation() ? 1.5 : 1.0));
  app.setFont(f);
}

void Appearance::addActions(QMenu& view, const std::function<void(bool)>& presentationToggled) {
  auto* themes = new QActionGroup(&view);
  for (const auto& [code, name] : {std::pair{QStringLiteral("light"), QCoreApplication::translate("Appearance", "Light theme")}, std::pair{QStringLiteral("dark"), QCoreApplication::translate("Appearance", "Dark theme")}}) {
    auto* a = view.addAction(name);
    a->setCheckable(true);
    a->setChecked(AppSettings::theme() == code);
    themes->addAction(a);
    QObject::connect(a, &QAction::triggered, &view, [code] {
      AppSettings::setTheme(code);
      apply(*qApp);
    });
  }
  view.addSeparator();
  auto* pres = view.addAction(QCoreApplication::translate("Appearance", "Presentation mode (large)"));
  pres->setCheckable(true);
  pres->setChecked(AppSettings::presentation());
  pres->setShortcut(QKeySequence(Qt::Key_F11));
  QObject::connect(pres, &QAction::toggled, &view, [presentationToggled](bool on) {
    AppSettings::setPresentation(on);
    apply(*qApp);
    presentationToggled(on);
  });
  view.addAction(QCoreApplication::translate("Appearance", "Larger text"), QKeySequence::ZoomIn, &view, [] {
    AppSettings::setFontScale(std::min(3.0, AppSettings::fontScale() * 1.15));
    apply(*qApp);
  });
  view.addAction(QCoreApplication::translate("Appearance", "Smaller text"), QKeySequence::ZoomOut, &view, [] {
    AppSettings::setFontScale(std::max(0.6, AppSettings::fontScale() / 1.15));
    apply(*qApp);
  });
}

void Appearance::addLanguageMenu(QMenu& view, const std::function<void()>& languageChanged) {
  auto* lang = view.addMenu(QCoreApplication::translate("Appearance", "Language"));
  auto* langs = new QActionGroup(lang);
  for (const auto& [code, name] : {std::pair{QStringLiteral("en"), QStringLiteral("English")},
                                   std::pair{QStringLiteral("fr"), QStringLiteral("Français")},
                                   std::pair{QStringLiteral("ru"), QStringLiteral("Русский")}}) {
    auto* a = lang->addAction(name);
    a->setCheckable(true);
    a->setChecked(AppSettings::language() == code);
    langs->addAction(a);
    QObject::connect(a, &QAction::triggered, &view, [code, languageChanged] {
      AppSettings::setLanguageOverride(QString());
      AppSettings::setLanguage(code);
      AppSettings::applyLanguage(*qApp);
      languageChanged();
    });
  }
}

} // namespace shardlab::app
