#include "launcher/LaunchOptions.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

namespace shardlab {

std::optional<LaunchOptions> parseLaunchOptions(int argc, char** argv, std::vector<std::string>& errors,
                                                int& exitCode) {
  LaunchOptions o;
  JobConfig& j = o.job;
  CLI::App cli{"shardlab-run: run a real distributed training job on Open MPI ranks and record it"};
  cli.set_version_flag("--version", "shardlab-run 0.1.0 (trace format 1)");
  std::string spec, budget, stages;
  cli.add_option("--spec", spec, "job as JSON (keys as the long options, with _); options given here override it");
  auto* strategy = cli.add_option("--strategy", j.strategy, "ddp | fsdp | pipeline | tp");
  auto* sharding = cli.add_option("--sharding", j.sharding, "FSDP: full (FULL_SHARD) | grad-op (SHARD_GRAD_OP)");
  auto* ranks = cli.add_option("--ranks,-n", j.ranks, "number of ranks (1-64)");
  auto* layers = cli.add_option("--layers", j.layers, "residual MLP blocks");
  auto* hidden = cli.add_option("--hidden", j.hidden, "hidden width H (blocks are H -> 4H -> H)");
  auto* vocab = cli.add_option("--vocab", j.vocab, "vocabulary of the synthetic language");
  auto* batch = cli.add_option("--batch", j.batch, "global batch in tokens (each rank takes batch/ranks)");
  auto* steps = cli.add_option("--steps", j.steps, "training steps");
  auto* seed = cli.add_option("--seed", j.seed, "seed of the data and the initial parameters");
  auto* lr = cli.add_option("--lr", j.lr, "AdamW learning rate");
  bool noPrefetchFlag = false;
  auto* noPrefetch = cli.add_flag("--no-prefetch", noPrefetchFlag, "FSDP: do not prefetch the next unit's all-gather");
  auto* budgetOpt = cli.add_option("--memory-budget", budget, "bytes one rank may hold, e.g. 3MiB (enforced at run time)");
  auto* micro = cli.add_option("--microbatches", j.microbatches, "pipeline: micro-batches per global batch");
  auto* schedule = cli.add_option("--schedule", j.schedule, "pipeline: naive | gpipe | 1f1b | interleaved");
  auto* virt = cli.add_option("--virtual-stages", j.virtualStages, "pipeline, interleaved: chunks per rank");
  auto* stagesOpt = cli.add_option("--stages", stages, "pipeline: units per stage, e.g. 2,2,1,1");
  auto* device = cli.add_option("--device", j.device, "auto | cpu | cuda");
  cli.add_option("--trace", o.traceFile, "write the merged trace to FILE");
  cli.add_option("--chrome-trace", o.chromeTraceFile, "write the Chrome Trace Event export to FILE");
  cli.add_option("--summary-json", o.summaryJsonFile, "write the summary as JSON to FILE");
  cli.add_option("--events", o.eventsTo, "'-': stream the trace to standard output as it happens");
  cli.add_option("--hostfile", o.hostfile, "Open MPI hostfile, to run across machines");
  cli.add_option("--run-dir", o.runDir, "keep the per-rank trace files in DIR (shared across hosts)");
  cli.add_option("--dump-params", o.dumpParams, "write the final parameters (float32, canonical layout) to FILE");
  cli.add_option("--mpirun", o.mpirun, "the mpirun to use");
  cli.add_flag("--quiet,-q", o.quiet, "print no summary table");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    exitCode = e.get_exit_code();
    if (exitCode == 0) {
      cli.exit(e);
      return std::nullopt;
    }
    errors.push_back(e.what());
    exitCode = 2;
    return std::nullopt;
  }

  if (!spec.empty()) {
    std::ifstream in(spec);
    if (!in) {
      errors.push_back("--spec: cannot read '" + spec + "'");
    } else {
      auto json = nlohmann::json::parse(in, nullptr, false);
      if (json.is_discarded()) {
        errors.push_back("--spec: '" + spec + "' is not valid JSON");
      } else {
        std::vector<std::string> specErrors;
        JobConfig fromSpec = JobConfig::fromJson(json, JobConfig{}, specErrors);
        for (auto& e : specErrors) errors.push_back("--spec " + spec + ": " + e);
        // Options given on the command line win over the spec.
        JobConfig merged = fromSpec;
        if (strategy->count()) merged.strategy = j.strategy;
        if (sharding->count()) merged.sharding = j.sharding;
        if (ranks->count()) merged.ranks = j.ranks;
        if (layers->count()) merged.layers = j.layers;
        if (hidden->count()) merged.hidden = j.hidden;
        if (vocab->count()) merged.vocab = j.vocab;
        if (batch->count()) merged.batch = j.batch;
        if (steps->count()) merged.steps = j.steps;
        if (seed->count()) merged.seed = j.seed;
        if (lr->count()) merged.lr = j.lr;
        if (micro->count()) merged.microbatches = j.microbatches;
        if (schedule->count()) merged.schedule = j.schedule;
        if (virt->count()) merged.virtualStages = j.virtualStages;
        if (device->count()) merged.device = j.device;
        j = merged;
      }
    }
  }
  if (noPrefetch->count()) j.prefetch = false;
  if (budgetOpt->count()) {
    auto b = parseBytes(budget);
    if (!b) errors.push_back("--memory-budget: '" + budget + "' is not a size (use bytes, KiB, MiB or GiB)");
    else if (*b <= 0) errors.push_back("--memory-budget: must be positive");
    else j.memoryBudget = *b;
  }
  if (stagesOpt->count()) {
    j.stages.clear();
    std::stringstream ss(stages);
    std::string item;
    while (std::getline(ss, item, ',')) {
      try {
        j.stages.push_back(std::stoi(item));
      } catch (...) {
        errors.push_back("--stages: '" + stages + "' must be a comma-separated list of unit counts");
        break;
      }
    }
  }
  if (!o.eventsTo.empty() && o.eventsTo != "-") errors.push_back("--events: only '-' (standard output) is supported");
  for (auto e : j.validate()) {
    // Name the option as typed: --memory-budget, not memory_budget.
    auto colon = e.find(':');
    std::string field = e.substr(0, colon);
    for (auto& c : field)
      if (c == '_') c = '-';
    errors.push_back("--" + field + e.substr(colon));
  }
  if (!errors.empty()) {
    exitCode = 2;
    return std::nullopt;
  }
  return o;
}

} // namespace shardlab
