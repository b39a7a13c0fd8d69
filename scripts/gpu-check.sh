#!/usr/bin/env bash
# ShardLab GPU check: builds the CUDA backend for this machine's GPU, runs the GPU
# tests, a few real engine jobs on the GPUs, and (when PyTorch is there) a PyTorch
# eager step for comparison. Non-interactive, no network, under 8 minutes.
#
#   scripts/gpu-check.sh            # from the repository root
#   OUT=/some/dir scripts/gpu-check.sh
#
# Writes at most 8 files under $OUT (default ./gpu-check-out):
#   log.txt                 everything, stage by stage (configure, build, ctest, jobs, bench)
#   results.tsv             one line per check: stage, name, status, seconds, note
#   table.txt               the table printed last
#   nvidia-smi.txt          the GPUs as nvidia-smi sees them
#   ctest-gpu.xml           JUnit report of ctest -L gpu
#   engine-summaries.jsonl  each engine job's --summary-json, one line per job
#   bench-torch.json        the PyTorch eager step timing
# Without a GPU it still configures and builds the CUDA code, skips the rest, and
# exits 0 with a "no GPU: skipped" table. Exit status: 0 when nothing failed
# (skips are fine), 1 when a check failed.
#
# Environment: OUT, BUILD_DIR (default build-gpu-check), JOBS (build parallelism),
# STEPS (engine steps, default 20), CUDA_ARCH (override the detected architecture).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
OUT="${OUT:-$ROOT/gpu-check-out}"
BUILD_DIR="${BUILD_DIR:-build-gpu-check}"
STEPS="${STEPS:-20}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 4)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
# Open MPI refuses root without these (GPU machines often run as root); harmless otherwise.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
LOG="$OUT/log.txt"
RESULTS="$OUT/results.tsv"
TABLE="$OUT/table.txt"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")" # traces and scratch: not returned
: >"$LOG"
printf 'stage\tname\tstatus\tseconds\tnote\n' >"$RESULTS"
START=$(date +%s)
FAILED=0
# Budget (seconds from the start): later stages are skipped past it, so the whole
# script stays under 8 minutes even when a stage hangs until its own timeout.
BUDGET=450

say() { echo "gpu-check: $*" | tee -a "$LOG"; }
elapsed() { echo $(($(date +%s) - START)); }
record() { # stage name status seconds note
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$RESULTS"
  [ "$3" = "FAIL" ] && FAILED=1
  return 0
}
# run STAGE NAME TIMEOUT cmd...: runs with a time limit, logs, records pass/fail.
run() {
  local stage="$1" name="$2" limit="$3"
  shift 3
  if [ "$(elapsed)" -ge "$BUDGET" ]; then
    say "$stage/$name: skipped, time budget used"
    record "$stage" "$name" SKIP 0 "time budget used"
    return 2
  fi
  {
    echo
    echo "===== $stage / $name ($(date -u +%H:%M:%S)) ====="
    echo "\$ $*"
  } >>"$LOG"
  local t0 rc
  t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" >>"$LOG" 2>&1
  rc=$?
  local dt=$(($(date +%s) - t0))
  local bad=FAIL
  [ "${NONFATAL:-0}" = 1 ] && bad=WARN
  if [ $rc -eq 0 ]; then
    record "$stage" "$name" PASS "$dt" ""
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    record "$stage" "$name" "$bad" "$dt" "timed out after ${limit}s"
  else
    record "$stage" "$name" "$bad" "$dt" "exit $rc (see log.txt)"
  fi
  say "$stage/$name: exit $rc in ${dt}s"
  return $rc
}

# --- 1. the GPUs -------------------------------------------------------------------
NGPU=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >"$OUT/nvidia-smi.txt" 2>&1; then
  NGPU=$(grep -c '^GPU ' "$OUT/nvidia-smi.txt" || true)
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,compute_cap --format=csv >>"$OUT/nvidia-smi.txt" 2>&1 || true
  nvidia-smi >>"$OUT/nvidia-smi.txt" 2>&1 || true
else
  echo "nvidia-smi not found or failed: no NVIDIA GPU here" >>"$OUT/nvidia-smi.txt"
fi
if [ "$NGPU" -gt 0 ]; then
  say "$NGPU GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)"
  record gpu detect PASS 0 "$NGPU GPU(s)"
else
  say "no GPU: nvidia-smi found no NVIDIA GPU; building the CUDA code only"
  record gpu detect SKIP 0 "no GPU"
fi

# Architecture: this GPU's (nvidia-smi compute_cap "9.0" -> 90), else sm_90 for the
# build-only run (one architecture keeps it short).
if [ -z "${CUDA_ARCH:-}" ]; then
  CUDA_ARCH=90
  if [ "$NGPU" -gt 0 ]; then
    cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
    if [[ "$cap" =~ ^[0-9]+$ ]]; then CUDA_ARCH="$cap"; else CUDA_ARCH=native; fi
  fi
fi
say "CUDA architecture: $CUDA_ARCH; build dir: $BUILD_DIR; output: $OUT"

# --- 2. configure and build (what builds) -----------------------------------------
HAVE_CUDA_BUILD=0
configured=0
if run build configure 120 cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSHARDLAB_BUILD_APP=OFF -DSHARDLAB_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH"; then
  configured=1
fi
if grep -q "CUDA backend ON" "$LOG"; then HAVE_CUDA_BUILD=1; fi
if [ "$configured" -eq 1 ]; then
  # With a GPU: everything (the engine jobs need shardlab-run and the worker).
  # Without: the CUDA backend and its tests only, a build check.
  # -k 0: keep going, so a broken target elsewhere does not stop the CUDA ones. A
  # failure here is a warning; what matters is which targets exist (next lines).
  if [ "$NGPU" -gt 0 ]; then
    NONFATAL=1 run build all 240 cmake --build "$BUILD_DIR" -j "$JOBS" -- -k 0
  else
    NONFATAL=1 run build cuda-targets 300 cmake --build "$BUILD_DIR" -j "$JOBS" --target shardlab_cuda \
      shardlab_nccl shardlab_comm_cuda shardlab_cuda_build_test shardlab_cuda_device_test shardlab_nccl_test \
      shardlab_gpu_transport_test -- -k 0
  fi
fi
for t in shardlab_cuda shardlab_nccl shardlab_comm_cuda shardlab_cuda_build_test shardlab_cuda_device_test \
  shardlab_nccl_test shardlab_gpu_transport_test shardlab-run shardlab-worker; do
  case "$t" in
    shardlab-run | shardlab-worker) f="$BUILD_DIR/bin/$t" ;;
    shardlab_cuda | shardlab_nccl) f="$BUILD_DIR/engine/cuda/lib$t.a" ;;
    shardlab_comm_cuda) f="$BUILD_DIR/engine/comm/lib$t.a" ;;
    *) f="$BUILD_DIR/bin/$t" ;;
  esac
  if [ -e "$f" ]; then
    record built "$t" PASS 0 ""
  elif [ "$NGPU" -eq 0 ] && { [ "$t" = shardlab-run ] || [ "$t" = shardlab-worker ]; }; then
    record built "$t" WARN 0 "not built (needed only for the engine jobs)"
  else
    record built "$t" FAIL 0 "not built"
  fi
done
if [ "$configured" -eq 0 ]; then
  say "configure failed (see the CMake errors in log.txt): nothing was built"
elif [ "$HAVE_CUDA_BUILD" -eq 0 ]; then
  say "CMake did not find CUDA + cuBLAS + NCCL: the CUDA backend was not built"
  record build cuda-backend FAIL 0 "CUDA backend OFF"
fi

# --- 3. tests ------------------------------------------------------------------------
if [ "$configured" -eq 1 ]; then
  # Runs everywhere: the no-GPU path is graceful.
  run ctest cuda-build 60 ctest --test-dir "$BUILD_DIR" -L cuda-build --output-on-failure --timeout 30 \
    --no-tests=error
else
  record ctest cuda-build FAIL 0 "not configured"
fi
if [ "$NGPU" -gt 0 ]; then
  run ctest gpu 150 ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure --timeout 120 --no-tests=error \
    --output-junit "$OUT/ctest-gpu.xml"
else
  record ctest gpu SKIP 0 "no GPU"
fi

# --- 4. engine jobs ------------------------------------------------------------------
RUNNER="$BUILD_DIR/bin/shardlab-run"
SUMMARIES="$OUT/engine-summaries.jsonl"
engine_job() { # name strategy ranks device
  local name="$1" strategy="$2" ranks="$3" device="${4:-cuda}"
  local trace="$WORK/$name.trace" summary="$WORK/$name.summary.json"
  run engine "$name" 90 "$RUNNER" --strategy "$strategy" --ranks "$ranks" --device "$device" --steps "$STEPS" \
    --trace "$trace" --summary-json "$summary"
  if [ -s "$summary" ]; then
    # One line per job: {"job": name, "summary": {...}}
    if command -v python3 >/dev/null 2>&1; then
      python3 -c 'import json,sys; print(json.dumps({"job": sys.argv[1], "summary": json.load(open(sys.argv[2]))}))' \
        "$name" "$summary" >>"$SUMMARIES" 2>>"$LOG" || true
    else
      { printf '{"job": "%s", "summary": ' "$name"; tr -d '\n' <"$summary"; echo '}'; } >>"$SUMMARIES"
    fi
  fi
}
if [ "$NGPU" -eq 0 ]; then
  record engine jobs SKIP 0 "no GPU"
elif [ ! -x "$RUNNER" ]; then
  say "engine jobs: $RUNNER was not built"
  record engine jobs FAIL 0 "shardlab-run not built"
elif ! command -v mpirun >/dev/null 2>&1; then
  say "engine jobs: mpirun not found (Open MPI is not installed here): skipped"
  record engine jobs SKIP 0 "no mpirun"
else
  # One rank per GPU (--device cuda): NCCL collectives on a communication stream. On
  # one GPU that is a one-rank job; pipeline and tp need two ranks at least.
  for strategy in ddp fsdp; do engine_job "$strategy-${NGPU}gpu" "$strategy" "$NGPU" cuda; done
  if [ "$NGPU" -ge 2 ]; then
    for strategy in pipeline tp; do engine_job "$strategy-${NGPU}gpu" "$strategy" "$NGPU" cuda; done
  fi
  # Four ranks sharing the GPUs (one GPU: all four on it): --device auto picks
  # cuda+mpi-staged (Open MPI through pinned host memory); the log shows the choice.
  if [ "$NGPU" -lt 4 ]; then
    engine_job "ddp-4ranks-staged" ddp 4 auto
    engine_job "fsdp-4ranks-staged" fsdp 4 auto
  fi
fi

# --- 5. PyTorch eager comparison -------------------------------------------------------
BENCH="$OUT/bench-torch.json"
if [ "$NGPU" -eq 0 ]; then
  record bench torch SKIP 0 "no GPU"
elif ! python3 -c "import torch" >/dev/null 2>&1; then
  say "bench: PyTorch not importable: skipped"
  record bench torch SKIP 0 "no torch"
else
  # Same model as the engine's default job (scripts/bench_torch_step.py --help).
  if run bench torch 90 python3 scripts/bench_torch_step.py --device cuda --out "$BENCH"; then :; fi
fi

# --- 6. the table ------------------------------------------------------------------------
# Engine step time: PLACEHOLDER. Until the summary carries a per-step time, this is
# wall_s / steps_completed of the ddp job (start-up included, so an upper bound).
# TODO(engine): read the summary's per-step timing (e.g. "step_s": {"median": ...}) here.
engine_ms="n/a"
if [ -s "$SUMMARIES" ] && command -v python3 >/dev/null 2>&1; then
  engine_ms=$(python3 - "$SUMMARIES" <<'PY' 2>>"$LOG" || echo n/a
import json, sys
for line in open(sys.argv[1]):
    rec = json.loads(line)
    if rec["job"].startswith("ddp-") and "staged" not in rec["job"]:
        s = rec["summary"]
        step = s.get("step_s", {}).get("median") if isinstance(s.get("step_s"), dict) else None
        if step is None and s.get("steps_completed"):
            step = s["wall_s"] / s["steps_completed"]  # placeholder: includes start-up
        print(f"{step * 1e3:.2f}" if step else "n/a")
        break
else:
    print("n/a")
PY
  )
fi
torch_ms="n/a"
if [ -s "$BENCH" ] && command -v python3 >/dev/null 2>&1; then
  torch_ms=$(python3 -c 'import json,sys; print("%.2f" % json.load(open(sys.argv[1]))["median_ms"])' "$BENCH" 2>>"$LOG" || echo n/a)
fi

{
  echo
  if [ "$NGPU" -eq 0 ]; then
    echo "ShardLab GPU check: no GPU: skipped (the CUDA code was configured and built only)"
  else
    echo "ShardLab GPU check: $NGPU GPU(s), sm arch $CUDA_ARCH"
  fi
  printf '%-8s %-26s %-6s %5s  %s\n' STAGE CHECK STATUS SECS NOTE
  tail -n +2 "$RESULTS" | while IFS=$'\t' read -r stage name status secs note; do
    printf '%-8s %-26s %-6s %5s  %s\n' "$stage" "$name" "$status" "$secs" "$note"
  done
  echo "step time (ms): engine ddp $engine_ms (placeholder: wall/steps) | torch eager $torch_ms"
  echo "total ${SECONDS}s; logs in $OUT"
} | tee "$TABLE" | tee -a "$LOG"

rm -rf "$WORK"
exit $FAILED
