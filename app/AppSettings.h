// AppSettings: persisted preferences (QSettings): language, theme, font scale and
// presentation mode. apply() sets the translator, the Fusion palette and the font.
#pragma once

#include <QCoreApplication>
#include <QString>

class QApplication;
class QTranslator;

class AppSettings {
  Q_DECLARE_TR_FUNCTIONS(AppSettings)
public:
  static QString language();          // "en", "fr", "ru" ("" = system)
  static void setLanguage(const QString& code);
  static QString theme();             // "light" | "dark"
  static void setTheme(const QString& theme);
  static bool presentation();         // large fonts for a projector
  static void setPresentation(bool on);
  static double fontScale();          // 1.0 by default
  static void setFontScale(double scale);
  // Installs the translator and palette; returns false when the language has no .qm.
  static bool apply(QApplication& app);

private:
  static QTranslator* translator_;
  static double basePointSize_;
};
