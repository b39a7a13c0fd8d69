// Writes the synthetic sample trace (tests/app/SampleTrace.h) to a file, for looking
// at the views while developing: shardlab_app_sample_trace OUT [ranks] [oom].
#include "SampleTrace.h"

#include <fstream>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  sample::Options o;
  if (argc > 2) o.ranks = std::atoi(argv[2]);
  if (argc > 3) o.oomOnRank1 = true;
  std::ofstream(argv[1]) << sample::fsdpText(o);
  return 0;
}
