// AppSettings: persisted preferences (QSettings): language, theme, font scale,
// presentation mode and the learner's name. applyLanguage() installs the translator;
// views/Appearance.h applies the theme, the font scale and presentation mode. Also the
// one place the app reads ShardLab's environment variables (SHARDLAB_LEARNER,
// SHARDLAB_RUN; docs/testing.md, "Environment variables").
#pragma once

#include <QCoreApplication>
#include <QString>

class QTranslator;

namespace shardlab::app {

class AppSettings {
  Q_DECLARE_TR_FUNCTIONS(AppSettings)
public:
  static QString language();          // "en", "fr", "ru" ("" = system); the override when set
  static void setLanguage(const QString& code);
  // For this process only (--lang, tests): not saved.
  static void setLanguageOverride(const QString& code);
  // Theme and presentation for this process only (--theme, --presentation): not saved.
  // setTheme() and setPresentation() (the View menu) end them: a choice made later wins.
  static void setOverrides(const QString& theme, bool presentation);
  // The language in use: language(), else the system's when it is fr or ru, else "en".
  static QString effectiveLanguage();
  // Installs the translator of effectiveLanguage() (also "en": it holds the plural forms);
  // every widget then gets QEvent::LanguageChange. False when the .qm is missing.
  static bool applyLanguage(QCoreApplication& app);
  static QString theme();             // "light" | "dark"
  static void setTheme(const QString& theme);
  static bool presentation();         // large fonts for a projector
  static void setPresentation(bool on);
  // Whose progress the quiz records: $SHARDLAB_LEARNER when set (tests, screenshots, a lab
  // PC's login script), else the name saved at first start ("" before one was given).
  static QString learner();
  static void setLearner(const QString& name);
  // Whether the app should ask for a name at start: none saved and none in the environment.
  static bool learnerAsked();
  // $SHARDLAB_RUN: the launcher to run instead of the one found (tests); "" when unset.
  static QString launcherOverride();
  static double fontScale();          // 1.0 by default
  static void setFontScale(double scale);
  // How much larger than the style's own check boxes, radio buttons and sliders are drawn:
  // the font scale, 1.5× presenting (views/Appearance.h applies it).
  static double controlScale();

private:
  static QTranslator* translator_;
  static QString override_, themeOverride_;
  static bool presentationOverride_;
};

} // namespace shardlab::app
