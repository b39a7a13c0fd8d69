// SHARDLAB_FAULT's two forms, and every other value refused by name (the launcher reads
// it once and exits 2 on an error; job/Faults.h).
#include "job/Faults.h"

#include <gtest/gtest.h>

using namespace shardlab;

TEST(Faults, EachFailureKindAndTheStragglerAreRead) {
  std::string error;
  const auto kill = parseFaults("1:3:kill", error);
  ASSERT_TRUE(kill) << error;
  EXPECT_EQ(kill->failure, (InjectedFailure{1, 3, InjectedFailure::Kind::Kill}));
  EXPECT_FALSE(kill->straggler);
  for (const auto& [text, kind] : {std::pair{"0:0:segv", InjectedFailure::Kind::Segv},
                                   std::pair{"0:0:exit", InjectedFailure::Kind::Exit},
                                   std::pair{"0:0:hang", InjectedFailure::Kind::Hang}}) {
    const auto f = parseFaults(text, error);
    ASSERT_TRUE(f && f->failure) << text << ": " << error;
    EXPECT_EQ(f->failure->kind, kind) << text;
    EXPECT_EQ(f->failure->toString(), text);  // the worker's --fault gets the same text back
  }
  const auto slow = parseFaults("2:5:slow:1.5", error);
  ASSERT_TRUE(slow) << error;
  EXPECT_FALSE(slow->failure);
  EXPECT_EQ(slow->straggler, (Straggler{2, 1.5, 5}));
}

TEST(Faults, AnyOtherValueIsAnErrorNamingTheVariableAndItsForms) {
  for (const char* text : {"", "explode", "1:1", "1:1:boom", "-1:1:kill", "1:-2:kill", "x:1:kill", "1:1:kill:now",
                           "1:1:slow", "1:1:slow:nan", "1:1:slow:inf", "1:1:slow:0.5", "1:1:slow:2x", "99999999999:1:kill"}) {
    std::string error;
    EXPECT_FALSE(parseFaults(text, error)) << text;
    EXPECT_EQ(error.rfind("SHARDLAB_FAULT: '", 0), 0u) << text << ": " << error;
    EXPECT_NE(error.find("RANK:STEP:slow:FACTOR"), std::string::npos) << error;
  }
  std::string error;
  EXPECT_FALSE(parseInjectedFailure("1:1:slow:2", error)) << "--fault takes failures only";
  EXPECT_EQ(error.rfind("--fault: ", 0), 0u) << error;
}
