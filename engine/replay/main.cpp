// shardlab-replay TRACE --mode schedule_alone|fitted|reference -o OUT.trace
// Replays a recorded trace (docs/replay.md): prints the three modes' results, the
// fitted communication model and where a cut-short trace stopped, and writes the
// chosen mode's replayed trace (its job record says it is a replay, and of which mode).
#include "trace/Summary.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <CLI/CLI.hpp>

#include <cstdio>

using namespace shardlab::trace;

int main(int argc, char** argv) {
  CLI::App app{"Replays a recorded ShardLab trace: its own ops, its own dependencies, a chosen cost for communication"};
  std::string input, output, modeName = "schedule_alone";
  app.add_option("trace", input, "a trace written by shardlab-run --trace")->required();
  app.add_option("--mode", modeName, "schedule_alone, fitted or reference: the replayed trace's mode")
      ->check(CLI::IsMember({"schedule_alone", "fitted", "reference"}));
  app.add_option("-o,--output", output, "write the replayed trace here");
  CLI11_PARSE(app, argc, argv);

  auto read = readTraceFile(input);
  if (!read.ok()) std::fprintf(stderr, "%s (replaying what came before)\n", read.error->describe(input).c_str());
  const ReplayReport report = replayReport(read.trace);
  if (!report.present) {
    std::fprintf(stderr, "%s: no ops to replay\n", input.c_str());
    return 1;
  }
  std::printf("replay of %s (%s)\n", input.c_str(), report.timesNote.c_str());
  for (const auto& r : report.results) {
    std::printf("  %-15s step %.6f s  exposed communication %.6f s", std::string(toString(r.mode)).c_str(), r.stepS,
                r.exposedCommS);
    if (r.bubble) std::printf("  bubble %.3f", *r.bubble);
    std::printf("\n");
  }
  std::printf("fitted: seconds = alpha + bytes * beta, from this run's own transfers\n");
  for (const auto& [kind, f] : report.fitted)
    std::printf("  %-15s alpha %.3e s  beta %.3e s/byte  (%d transfers)\n", kind.c_str(), f.alphaS, f.betaSPerByte,
                f.samples);
  std::printf("reference: %s, %.1f us per message, %.1f GB/s; compute kept as measured\n",
              std::string(kReferenceInterconnect.name).c_str(), kReferenceInterconnect.latencyS * 1e6,
              kReferenceInterconnect.bandwidthBytesPerS * 1e-9);
  if (report.stoppedAt) std::printf("stopped: %s\n", report.stoppedAt->c_str());

  if (output.empty()) return 0;
  const Trace replayed = replayedTrace(read.trace, *replayModeFromString(modeName));
  std::FILE* out = std::fopen(output.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", output.c_str());
    return 1;
  }
  TraceWriter writer(out, replayed.units);
  writer.writeHeader();
  writer.writeJob(replayed.job ? replayed.job->written : nlohmann::json::object());
  for (const auto& info : replayed.ranks)
    if (!info.meta.is_null()) writer.writeRank(info.rank, info.meta);
  for (const auto& e : replayed.events)
    writer.write(e, e.record == Record::Failure && e.text < replayed.texts.size() ? replayed.texts[e.text] : "");
  writer.flush();
  std::fclose(out);
  std::printf("wrote the %s replay to %s\n", modeName.c_str(), output.c_str());
  return 0;
}
