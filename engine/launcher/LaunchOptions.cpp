#include "launcher/LaunchOptions.h"

#include "job/BoundedFile.h"
#include "job/ExitCodes.h"
#include "job/Version.h"
#include "trace/Event.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace shardlab {

std::optional<LaunchOptions> parseLaunchOptions(int argc, char** argv, std::vector<std::string>& errors,
                                                int& exitCode) {
  LaunchOptions o;
  CLI::App cli{"shardlab-run: run a real distributed training job on Open MPI ranks and record it"};
  cli.set_version_flag("--version", std::string("shardlab-run ") + kVersion + " (trace format " +
                                        std::to_string(trace::kFormatVersion) + ")");
  // Each job option is read as text and becomes the spec key of the same name ('-' as
  // '_'), laid over --spec: JobConfig::fromJson is the one reader of both.
  std::string spec;
  cli.add_option("--spec", spec, "job as JSON (keys as the long options, with _); options given here override it");
  struct JobOption {
    const char* flag;
    const char* key;
    const char* help;
    enum Type { Int, Number, Text } type;
    std::string value;
  };
  std::vector<JobOption> jobOptions = {
      {"--strategy", "strategy", "ddp | fsdp | pipeline | tp", JobOption::Text, {}},
      {"--sharding", "sharding",
       "FSDP: no-shard (NO_SHARD, ZeRO-0) | optimizer (ZeRO-1) | grad-op (SHARD_GRAD_OP, ZeRO-2) | full (FULL_SHARD, "
       "ZeRO-3) | hybrid (HYBRID_SHARD: full inside groups of --shard-group ranks, replicated across them)",
       JobOption::Text, {}},
      {"--shard-group", "shard_group", "FSDP, hybrid: ranks per shard group (must divide --ranks)", JobOption::Int, {}},
      {"--backward-prefetch", "backward_prefetch",
       "FSDP: pre (BACKWARD_PRE, default) | post (BACKWARD_POST) | none: when the backward gathers the previous unit",
       JobOption::Text, {}},
      {"--limit-all-gathers", "limit_all_gathers",
       "FSDP: at most N units' gathered parameters held; a prefetch past it waits (default: no limit)", JobOption::Int,
       {}},
      {"--accumulate", "accumulate",
       "DDP, FSDP: micro-steps per optimizer step (gradient accumulation; the batch is split into K micro-batches)",
       JobOption::Int, {}},
      {"--param-dtype", "param_dtype",
       "FSDP (grad-op, full, hybrid): fp32 (default) | bf16: parameters all-gathered in bf16 (master shards and AdamW "
       "stay fp32; CPU ranks compute in fp32 on the upcast values)",
       JobOption::Text, {}},
      {"--reduce-dtype", "reduce_dtype",
       "FSDP (grad-op, full, hybrid): fp32 (default) | bf16: gradients reduce-scattered in bf16", JobOption::Text, {}},
      {"--ranks,-n", "ranks", "number of ranks (1-64)", JobOption::Int, {}},
      {"--mesh", "mesh",
       "device mesh, e.g. dp=2,tp=2 (dimensions dp, pp, tp; sizes multiply to --ranks; the last varies fastest over "
       "the ranks): tp over tp and dp, pipeline over pp and dp, ddp and fsdp over dp (docs/mesh.md)",
       JobOption::Text, {}},
      {"--model", "model",
       "mlp (default: residual MLP blocks over independent tokens; the lessons use it) | gpt (pre-norm decoder "
       "over sequences: attention heads, learned positions; docs/model.md)",
       JobOption::Text, {}},
      {"--heads", "heads", "gpt: attention heads (must divide --hidden; head size hidden/heads)", JobOption::Int, {}},
      {"--seq-len", "seq_len", "gpt: tokens per sequence (the batch counts sequences: tokens = batch x seq-len)",
       JobOption::Int, {}},
      {"--layers", "layers", "residual MLP blocks (gpt: transformer blocks)", JobOption::Int, {}},
      {"--hidden", "hidden", "hidden width H (blocks are H -> 4H -> H)", JobOption::Int, {}},
      {"--vocab", "vocab", "vocabulary of the synthetic language", JobOption::Int, {}},
      {"--batch", "batch", "global batch in tokens (gpt: in sequences; each rank takes batch/ranks)", JobOption::Int, {}},
      {"--steps", "steps", "training steps", JobOption::Int, {}},
      {"--seed", "seed", "seed of the data and the initial parameters", JobOption::Int, {}},
      {"--lr", "lr", "AdamW learning rate", JobOption::Number, {}},
      {"--weight-decay", "weight_decay", "AdamW weight decay", JobOption::Number, {}},
      {"--memory-budget", "memory_budget", "bytes one rank may hold, e.g. 3MiB (enforced at run time)", JobOption::Text, {}},
      {"--microbatches", "microbatches", "pipeline: micro-batches per global batch", JobOption::Int, {}},
      {"--schedule", "schedule", "pipeline: naive | gpipe | 1f1b | interleaved | zb-h1 | zb-h2", JobOption::Text, {}},
      {"--virtual-stages", "virtual_stages", "pipeline, interleaved: chunks per rank", JobOption::Int, {}},
      {"--stages", "stages", "pipeline: units per stage, e.g. 2,2,1,1", JobOption::Text, {}},
      {"--collective-timeout", "collective_timeout",
       "seconds a collective or receive may take before the job is declared hung (default 60): each waiting rank "
       "writes its flight recorder into the trace, the launcher names the missing rank and exits 3",
       JobOption::Number, {}},
      {"--hostfile", "hostfile",
       "Open MPI hostfile (one host per line, e.g. 'lab-pc-01 slots=4'), to spread the ranks over machines "
       "(docs/multi-host.md)",
       JobOption::Text, {}},
      {"--device", "device", "auto | cpu | cuda | cuda+mpi-staged (GPU ranks, collectives through Open MPI staged in host memory)", JobOption::Text, {}},
  };
  std::vector<CLI::Option*> given;
  for (auto& opt : jobOptions) given.push_back(cli.add_option(opt.flag, opt.value, opt.help));
  bool forwardPrefetchFlag = false, noPrefetchFlag = false;
  auto* forwardPrefetch = cli.add_flag("--forward-prefetch", forwardPrefetchFlag,
                                       "FSDP: issue the next unit's all-gather before this unit's forward");
  auto* noPrefetch = cli.add_flag("--no-prefetch", noPrefetchFlag,
                                  "FSDP: no prefetch at all (--backward-prefetch none, no forward prefetch)");
  bool checkpointFlag = false, noSyncFlag = false;
  auto* checkpoint = cli.add_flag("--checkpoint-activations", checkpointFlag,
                                  "DDP, FSDP: keep each unit's input only and recompute its forward in the backward");
  auto* noSync = cli.add_flag("--no-sync", noSyncFlag,
                              "DDP, FSDP, with --accumulate: keep full gradients over the micro-steps and reduce "
                              "once, at the last (PyTorch's no_sync)");
  cli.add_option("--trace", o.traceFile, "write the merged trace to FILE");
  cli.add_option("--chrome-trace", o.chromeTraceFile, "write the Chrome Trace Event export to FILE");
  cli.add_option("--summary-json", o.summaryJsonFile, "write the summary as JSON to FILE");
  cli.add_option("--events", o.eventsTo, "'-': stream the trace to standard output as it happens");
  cli.add_option("--run-dir", o.runDir, "keep the per-rank trace files in DIR (shared across hosts)");
  cli.add_option("--dump-params", o.dumpParams, "write the final parameters (float32, canonical layout) to FILE");
  cli.add_option("--mpirun", o.mpirun, "the mpirun to use");
  cli.add_flag("--quiet,-q", o.quiet, "print no summary table");
  bool noWireMonitoring = false;
  cli.add_flag("--no-wire-monitoring", noWireMonitoring,
               "do not turn Open MPI's monitoring on: the bytes each rank sends are then modelled, not measured");
  cli.add_option("--collective-algorithms", o.collectiveAlgorithms,
                 "ring (default): Open MPI runs all-reduce, all-gather and reduce-scatter as rings, the algorithm "
                 "the modelled bytes assume; open-mpi: Open MPI chooses by size and rank count")
      ->check(CLI::IsMember({"ring", "open-mpi"}));
  cli.add_flag("--calibrate", o.calibrate,
               "print this machine's calibration as JSON (cores, GPUs, matrix multiply, hand-off latency, collective "
               "bandwidth): cached per machine and build, measured (about 2 s) when not; no job is run");
  cli.add_flag("--recalibrate", o.recalibrate, "measure the calibration again even when cached, then as --calibrate");
  cli.add_flag("--force", o.force,
               "launch even when the pre-flight check says the ranks cannot fit in this machine's free memory, or "
               "are too many for its cores");
  cli.add_flag("--check", o.checkOnly, "check the job against every rule and exit: 0 valid, 2 not; nothing is launched");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    exitCode = e.get_exit_code();
    if (exitCode == 0) {
      cli.exit(e);
      return std::nullopt;
    }
    errors.push_back(e.what());
    exitCode = code(LauncherExit::InvalidJob);
    return std::nullopt;
  }

  o.wireMonitoring = !noWireMonitoring;
  o.specFile = spec;

  // Name the option as typed: --memory-budget, not memory_budget.
  auto optionName = [](std::string key) {
    for (auto& c : key)
      if (c == '_') c = '-';
    return "--" + key;
  };
  JobConfig base;
  if (!spec.empty()) {
    FileProblem why;
    const auto text = readBoundedFile(spec, kSpecFileCap, why);
    const auto deep = text ? jsonNestingProblem(*text) : std::nullopt;
    auto json = text && !deep ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
    if (!text) errors.push_back("--spec: '" + spec + "' " + why.text);
    else if (deep) errors.push_back("--spec: '" + spec + "' " + *deep);
    else if (json.is_discarded()) errors.push_back("--spec: '" + spec + "' is not valid JSON");
    else {
      std::vector<JobIssue> issues;
      base = JobConfig::fromJson(json, issues);
      for (const auto& i : issues) errors.push_back("--spec " + spec + ": " + i.message());
    }
  }
  // Options given on the command line win over the spec.
  nlohmann::json overrides = nlohmann::json::object();
  for (std::size_t i = 0; i < jobOptions.size(); ++i) {
    if (!given[i]->count()) continue;
    const auto& opt = jobOptions[i];
    const std::string& text = opt.value;
    nlohmann::json value = text;
    if (opt.type != JobOption::Text) {
      value = nlohmann::json::parse(text, nullptr, false);
      const bool ok = opt.type == JobOption::Int ? value.is_number_integer() : value.is_number();
      if (!ok) {
        errors.push_back(optionName(opt.key) + ": '" + text + "' is not " +
                         (opt.type == JobOption::Int ? "an integer" : "a number"));
        continue;
      }
    } else if (std::string_view(opt.key) == "stages") {
      value = nlohmann::json::array();
      std::stringstream ss(text);
      std::string item;
      while (std::getline(ss, item, ',')) {
        auto n = nlohmann::json::parse(item, nullptr, false);
        if (!n.is_number_integer()) {
          errors.push_back("--stages: '" + text + "' must be a comma-separated list of unit counts");
          break;
        }
        value.push_back(n);
      }
    } else if (std::string_view(opt.key) == "memory_budget") {
      // On the command line a budget is a limit: 0 ("none") is the spec's way to say no limit.
      auto bytes = parseBytes(text);
      if (bytes && *bytes <= 0) errors.push_back("--memory-budget: must be positive");
    }
    overrides[opt.key] = value;
  }
  if (forwardPrefetch->count()) overrides["forward_prefetch"] = true;
  if (checkpoint->count()) overrides["checkpoint_activations"] = true;
  if (noSync->count()) overrides["no_sync"] = true;
  if (noPrefetch->count()) {
    if (forwardPrefetch->count() || overrides.contains("backward_prefetch"))
      errors.push_back("--no-prefetch: cannot be combined with --forward-prefetch or --backward-prefetch");
    overrides["forward_prefetch"] = false;
    overrides["backward_prefetch"] = "none";
  }
  std::vector<JobIssue> issues;
  o.job = JobConfig::fromJson(overrides, issues, base);
  // SHARDLAB_FAULT is read here, once: the workers get what it asks for in their job (a
  // straggler, which wins over the spec's) and as --fault, never from their environment.
  bool stragglerFromFault = false;
  if (const char* fault = std::getenv("SHARDLAB_FAULT")) {
    std::string error;
    if (const auto faults = parseFaults(fault, error)) {
      o.failure = faults->failure;
      if (faults->straggler) o.job.straggler = faults->straggler;
      stragglerFromFault = faults->straggler.has_value();
    } else {
      errors.push_back(error);
    }
  }
  // The other variables, read here once too: a malformed one is refused by name, as an option is.
  o.tuning = readTuning(processEnvironment, errors);
  o.hooks = readTestHooks(processEnvironment, errors);
  if (const char* worker = std::getenv("SHARDLAB_WORKER")) o.namedWorker = worker;
  if (issues.empty()) issues = o.job.validate();
  for (const auto& i : issues)
    errors.push_back((i.field == "straggler" && stragglerFromFault ? "SHARDLAB_FAULT" : optionName(i.field)) + ": " +
                     i.ruleText());
  if (o.failure && o.failure->rank >= o.job.ranks)
    errors.push_back("SHARDLAB_FAULT: rank " + std::to_string(o.failure->rank) + " is not a rank of this job (0 to " +
                     std::to_string(o.job.ranks - 1) + ")");
  if (!o.eventsTo.empty() && o.eventsTo != "-") errors.push_back("--events: only '-' (standard output) is supported");
  if (!errors.empty()) {
    exitCode = code(LauncherExit::InvalidJob);
    return std::nullopt;
  }
  return o;
}

} // namespace shardlab
