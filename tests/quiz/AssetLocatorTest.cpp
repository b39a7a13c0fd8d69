#include "quiz/bank/AssetLocator.h"
#include "TestSupport.h"

#include <cstdlib>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {
class EnvVar {
public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~EnvVar() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};
} // namespace

TEST(AssetLocator, ExplicitFolderWinsAndMustExist) {
  TempDir dir;
  EnvVar env("SHARDLAB_ASSETS", "/nonexistent");
  EXPECT_EQ(findAssetsDir(dir.path(), {}), dir.path());
  EXPECT_THROW(findAssetsDir(dir.path() / "missing", {}), AssetsNotFound);
}

TEST(AssetLocator, EnvironmentComesNext) {
  TempDir dir;
  EnvVar env("SHARDLAB_ASSETS", dir.path().c_str());
  EXPECT_EQ(findAssetsDir(std::nullopt, {}), dir.path());
  EnvVar bad("SHARDLAB_ASSETS", (dir.path() / "missing").c_str());
  EXPECT_THROW(findAssetsDir(std::nullopt, {}), AssetsNotFound);
}

TEST(AssetLocator, InstalledLayoutBesideTheExecutable) {
  TempDir prefix;
  std::filesystem::create_directories(prefix.path() / "bin");
  std::filesystem::create_directories(prefix.path() / "share" / "shardlab" / "assets" / "quiz");
  EnvVar env("SHARDLAB_ASSETS", nullptr);
  EXPECT_EQ(findAssetsDir(std::nullopt, prefix.path() / "bin"), prefix.path() / "share" / "shardlab" / "assets");
}

TEST(AssetLocator, FallsBackToTheSourceTree) {
  TempDir nowhere;
  EnvVar env("SHARDLAB_ASSETS", "");
  const auto found = findAssetsDir(std::nullopt, nowhere.path());
  EXPECT_TRUE(std::filesystem::equivalent(found, assetsDir()));
}
