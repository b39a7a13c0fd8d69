#include "models/AppSettings.h"

#include "views/Palette.h"

#include <QApplication>
#include <QFont>
#include <QLocale>
#include <QSettings>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>

#include <cmath>
#include <QTranslator>

QTranslator* AppSettings::translator_ = nullptr;
double AppSettings::basePointSize_ = 0.0;

QString AppSettings::override_;
QString AppSettings::themeOverride_;
bool AppSettings::presentationOverride_ = false;

void AppSettings::setOverrides(const QString& theme, bool presentation) {
  themeOverride_ = theme;
  presentationOverride_ = presentation;
}

QString AppSettings::language() {
  if (!override_.isEmpty()) return override_;
  return QSettings().value(QStringLiteral("ui/language")).toString();
}
void AppSettings::setLanguageOverride(const QString& code) { override_ = code; }
QString AppSettings::effectiveLanguage() {
  const QStringList known{QStringLiteral("en"), QStringLiteral("fr"), QStringLiteral("ru")};
  QString lang = language();
  if (lang.isEmpty()) lang = QLocale().name().left(2);
  return known.contains(lang) ? lang : QStringLiteral("en");
}
QString AppSettings::learner() {
  if (qEnvironmentVariableIsSet("SHARDLAB_LEARNER")) return qEnvironmentVariable("SHARDLAB_LEARNER").trimmed();
  return QSettings().value(QStringLiteral("learner/name")).toString();
}
void AppSettings::setLearner(const QString& name) { QSettings().setValue(QStringLiteral("learner/name"), name.trimmed()); }
bool AppSettings::learnerAsked() {
  return qEnvironmentVariableIsSet("SHARDLAB_LEARNER") || QSettings().contains(QStringLiteral("learner/name"));
}
void AppSettings::setLanguage(const QString& code) { QSettings().setValue(QStringLiteral("ui/language"), code); }
QString AppSettings::theme() {
  if (!themeOverride_.isEmpty()) return themeOverride_;
  return QSettings().value(QStringLiteral("ui/theme"), QStringLiteral("light")).toString();
}
// A choice made in the app after start wins over the command line's --theme.
void AppSettings::setTheme(const QString& t) {
  themeOverride_.clear();
  QSettings().setValue(QStringLiteral("ui/theme"), t);
}
bool AppSettings::presentation() { return presentationOverride_ || QSettings().value(QStringLiteral("ui/presentation"), false).toBool(); }
// F11 after --presentation leaves presentation mode: the command line no longer holds it on.
void AppSettings::setPresentation(bool on) {
  presentationOverride_ = false;
  QSettings().setValue(QStringLiteral("ui/presentation"), on);
}
double AppSettings::fontScale() { return QSettings().value(QStringLiteral("ui/fontScale"), 1.0).toDouble(); }
void AppSettings::setFontScale(double s) { QSettings().setValue(QStringLiteral("ui/fontScale"), s); }

bool AppSettings::apply(QApplication& app) {
  applyAppearance(app);
  return applyLanguage(app);
}

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

double AppSettings::controlScale() { return fontScale() * (presentation() ? 1.5 : 1.0); }

void AppSettings::applyAppearance(QApplication& app) {
  app.setStyle(new AppStyle(controlScale()));
  app.setPalette(theme() == QLatin1String("dark") ? Palette::dark() : Palette::light());
  if (basePointSize_ <= 0) basePointSize_ = app.font().pointSizeF() > 0 ? app.font().pointSizeF() : 10.0;
  QFont f = app.font();
  f.setPointSizeF(basePointSize_ * fontScale() * (presentation() ? 1.5 : 1.0));
  app.setFont(f);
}

bool AppSettings::applyLanguage(QCoreApplication& app) {
  if (translator_) {
    app.removeTranslator(translator_);
    delete translator_;
    translator_ = nullptr;
  }
  auto* t = new QTranslator(&app);
  if (!t->load(QStringLiteral(":/i18n/shardlab_%1.qm").arg(effectiveLanguage()))) {
    delete t;
    return false;
  }
  app.installTranslator(t);
  translator_ = t;
  // Numbers follow the language too: a decimal comma in French and Russian.
  QLocale::setDefault(QLocale(effectiveLanguage()));
  return true;
}
