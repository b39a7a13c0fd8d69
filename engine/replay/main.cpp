// shardlab-replay TRACE --mode schedule_alone|fitted|reference -o OUT.trace --summary-json FILE
// Replays a recorded trace (docs/replay.md): prints the three modes' results, the
// fitted communication model and where a cut-short trace stopped, and writes the
// chosen mode's replayed trace (its job record says it is a replay, and of which mode).
// TRACE is a ShardLab trace or a PyTorch profiler trace (docs/pytorch-traces.md).
#include "trace/OpenTrace.h"
#include "trace/Replay.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <CLI/CLI.hpp>

#include <cstdio>

using namespace shardlab::trace;

int main(int argc, char** argv) {
  CLI::App app{"Replays a recorded ShardLab trace: its own ops, its own dependencies, a chosen cost for communication"};
  std::string input, output, summaryJson, modeName = "schedule_alone";
  app.add_option("trace", input, "a trace written by shardlab-run --trace, or a PyTorch profiler trace "
                                 "(*.pt.trace.json[.gz], or a folder of one per rank)")->required();
  app.add_option("--mode", modeName, "schedule_alone, fitted or reference: the replayed trace's mode")
      ->check(CLI::IsMember({"schedule_alone", "fitted", "reference"}));
  app.add_option("-o,--output", output, "write the replayed trace here");
  app.add_option("--summary-json", summaryJson, "write the trace's summary as JSON to FILE (as shardlab-run's)");
  CLI11_PARSE(app, argc, argv);

  const OpenedTrace opened = openTrace(input);
  if (opened.imported && !opened.ok()) {
    std::fprintf(stderr, "%s\n", opened.describeError(input).c_str());
    return 1;
  }
  if (!opened.ok()) std::fprintf(stderr, "%s (replaying what came before)\n", opened.describeError(input).c_str());
  if (opened.imported)
    std::printf("imported from a PyTorch profiler trace: %s\n", opened.imported->describe().c_str());
  const ReadResult& read = opened.read;
  if (!summaryJson.empty()) {
    std::FILE* out = std::fopen(summaryJson.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", summaryJson.c_str());
      return 1;
    }
    const std::string text = summarize(read.trace).toJson().dump(2) + "\n";
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
  }
  const ReplayReport report = replayReport(read.trace);
  if (!report.notReplayed.empty()) {
    // The summary (--summary-json) was still written: only a replayed trace cannot be.
    std::printf("replay of %s: %s\n", input.c_str(), report.notReplayed.c_str());
    if (output.empty()) return 0;
    std::fprintf(stderr, "%s: -o %s: no replayed trace to write (%s)\n", input.c_str(), output.c_str(),
                 report.notReplayed.c_str());
    return 1;
  }
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
