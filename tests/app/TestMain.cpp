// The app tests need a QApplication (offscreen platform, see CMakeLists.txt).
#include "models/AppSettings.h"

#include <QApplication>

#include <gtest/gtest.h>

using namespace shardlab::app;

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("ShardLabTests"));
  // English too goes through its translator: it holds the plural forms ("1 CPU rank", "4 CPU ranks").
  AppSettings::setLanguageOverride(QStringLiteral("en"));
  if (!AppSettings::applyLanguage(app)) return 1;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
