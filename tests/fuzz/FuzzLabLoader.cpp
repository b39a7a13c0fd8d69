// libFuzzer target: the lab loader (quiz/bank/LabLoader::load) against the shipped
// question bank and lessons. The input is written beside a copy of the shipped lab's
// folder, so its notes' paths can resolve. A lab is returned exactly when no
// diagnostic was raised.
#include "FuzzSupport.h"

#include "quiz/bank/LabLoader.h"

#include <cstdlib>

using namespace shardlab::quiz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const LessonLibrary lessons = LessonLibrary::loadDirectory(fuzz::assetsDir() / "lessons", &fuzz::bank());
  static const LabLoader loader(fuzz::bank(), lessons);
  const auto& dir = fuzz::scratch(fuzz::assetsDir() / "labs");
  const auto file = dir / "fuzz-lab.json";
  fuzz::writeFile(file, data, size);
  Diagnostics diagnostics;
  const auto lab = loader.load(file, diagnostics);
  (void)diagnostics.toString();
  if (lab.has_value() != diagnostics.empty()) std::abort();
  return 0;
}
