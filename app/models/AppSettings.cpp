#include "models/AppSettings.h"

#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace shardlab::app {

QTranslator* AppSettings::translator_ = nullptr;

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
QString AppSettings::launcherOverride() { return qEnvironmentVariable("SHARDLAB_RUN"); }
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

double AppSettings::controlScale() { return fontScale() * (presentation() ? 1.5 : 1.0); }

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

} // namespace shardlab::app
