#!/usr/bin/env bash
# ShardLab GPU check. Two modes:
#
#   scripts/gpu-check.sh --bundle gpu-bundle/shardlab-gpu.tar.xz   # bundle mode (the GPU machine)
#   scripts/gpu-check.sh --bundle ... --dry-run                   # prints the steps, runs nothing
#   scripts/gpu-check.sh                                          # build mode (a machine with the deps)
#
# BUNDLE MODE runs the prebuilt bundle of scripts/gpu-bundle.sh (the GPU machine has
# no Open MPI, OpenBLAS or build dependencies and no network, so it cannot build), in
# the order of the GPU review's first check, in one call of at most 8 minutes:
#   1 env       nvidia-smi, where pip's NCCL is, the bundle unpacked, ldd of every binary
#   2 kernels   shardlab_cuda_device_test, cuda_build_test, compute-sanitizer racecheck
#               and memcheck (warnings only: gVisor's runtime may refuse the sanitizer)
#   3 mpi/nccl  mpirun -np 2 hostname, shardlab_nccl_test, shardlab_gpu_transport_test;
#               preflight: a model far larger than the GPU is refused (exit 2, naming
#               GPU 0 and its free memory) before anything starts
#   4 parity    one rank GPU vs CPU (ddp, fsdp on NCCL; --dump-params relative 1e-4 and
#               losses), and the GPU job metadata test
#   5 parity    four staged ranks (ddp, fsdp, tp, pipeline) vs CPU; fsdp once more with
#               CUDA_LAUNCH_BLOCKING=1
#   6 speed     a 200-step one-rank ddp job against PyTorch eager (foreach and fused
#               AdamW), the engine's per-step median from its trace, step 0 left out
#   7 fault     a staged 4-rank job with SHARDLAB_FAULT=1:3:kill must exit non-zero
#   8 refusal   FSDP bf16 mixed precision is CPU-only: --device cuda --param-dtype bf16
#               must exit 2 naming why; under --device auto the bf16 job runs on CPU ranks
# SHARDLAB_REQUIRE_GPU=1 whenever nvidia-smi sees a GPU (a skipped gpu test then
# fails), SHARDLAB_GPU_TIMEOUT_S=30 and NCCL_DEBUG=WARN. Writes under $OUT: log.txt
# (everything), results.tsv, table.txt (printed last), nvidia-smi.txt, ldd.txt,
# *.xml (gtest reports), bench-torch.json. Exit 0 when nothing FAILed.
#
# BUILD MODE (the original check) configures and builds the CUDA backend here and runs
# ctest -L gpu and a few jobs; without a GPU it builds the CUDA code only.
#
# Environment: OUT (default ./gpu-check-out), BUILD_DIR (build mode, default
# build-gpu-check), JOBS, STEPS (engine steps, default 20), CUDA_ARCH.
set -uo pipefail

BUNDLE="${BUNDLE:-}"
DRY_RUN=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) BUNDLE="$2"; shift 2 ;;
    --bundle=*) BUNDLE="${1#--bundle=}"; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "gpu-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

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
  if [ "$DRY_RUN" = 1 ]; then
    printf '%-8s %-22s %4ss  %s\n' "$stage" "$name" "$limit" "$*"
    return 0
  fi
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


# ===================================================================================
# BUNDLE MODE
# ===================================================================================
# The checks run through `timeout`, which runs programs, not shell functions: `env`
# sets a check's variables, and EXPECT_KILLED (bash -c) passes when the job failed
# and the launcher blamed the killed rank (not a failure of some other cause).
EXPECT_KILLED=(bash -c 'out=$("$@" 2>&1); rc=$?; printf "%s\n" "$out"; echo "exit status $rc (non-zero expected)"
  [ "$rc" -ne 0 ] && grep -q "rank 1 failed: killed by signal 9" <<<"$out"' expect-killed)
# EXPECT_GPU_REFUSED passes when the launcher refused the job with exit 2 in its GPU
# pre-flight check (the estimate against GPU 0's free memory, cudaMemGetInfo).
EXPECT_GPU_REFUSED=(bash -c 'out=$("$@" 2>&1); rc=$?; printf "%s\n" "$out"; echo "exit status $rc (2 expected)"
  [ "$rc" -eq 2 ] && grep -q "on GPU 0 .*free of" <<<"$out"' expect-gpu-refused)
# About 2 TiB per rank (134 million parameters per block): larger than any GPU.
TOO_LARGE_FOR_A_GPU=(--strategy ddp --ranks 1 --layers 1000 --hidden 4096 --steps 1 -q)
# bf16 mixed precision is host code on Open MPI (docs/gpu.md, "What GPU ranks do not run"):
# refused on GPU ranks with exit 2, run on CPU ranks under --device auto, on a machine with GPUs.
EXPECT_BF16_REFUSED=(bash -c 'out=$("$@" 2>&1); rc=$?; printf "%s\n" "$out"; echo "exit status $rc (2 expected)"
  [ "$rc" -eq 2 ] && grep -q "bf16 mixed precision runs on CPU ranks only" <<<"$out"' expect-bf16-refused)
EXPECT_BF16_ON_CPU=(bash -c 'out=$("$@" 2>&1); rc=$?; printf "%s\n" "$out"
  [ "$rc" -eq 0 ] && grep -q "device cpu: --param-dtype bf16" <<<"$out"' expect-bf16-on-cpu)
if [ -n "$BUNDLE" ]; then
  BUDGET=420
  NGPU=0
  if [ "$DRY_RUN" = 1 ]; then
    echo "gpu-check --dry-run: bundle $BUNDLE, output $OUT; the steps in order (stage, check, time limit, command):"
    B="<unpacked bundle>"
  else
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >"$OUT/nvidia-smi.txt" 2>&1; then
      NGPU=$(grep -c '^GPU ' "$OUT/nvidia-smi.txt" || true)
      nvidia-smi >>"$OUT/nvidia-smi.txt" 2>&1 || true
    else
      echo "nvidia-smi not found or failed: no NVIDIA GPU here" >>"$OUT/nvidia-smi.txt"
    fi
    if [ -d "$BUNDLE" ]; then
      B="$(cd "$BUNDLE" && pwd)"
    else
      # tar needs xz for -J; Python's tarfile does not (either may be missing).
      tar -C "$WORK" -xJf "$BUNDLE" >>"$LOG" 2>&1 ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$BUNDLE" "$WORK" >>"$LOG" 2>&1 ||
        { say "cannot unpack $BUNDLE"; record env unpack FAIL 0 "$BUNDLE"; }
      B="$WORK/shardlab-gpu"
    fi
    [ -f "$B/env.sh" ] || { say "$B/env.sh missing: not a bundle"; record env bundle FAIL 0 "no env.sh"; exit 1; }
    # shellcheck disable=SC1091
    . "$B/env.sh"
    { echo "===== bundle"; cat "$B/MANIFEST"; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; } >>"$LOG"
  fi
  export SHARDLAB_GPU_TIMEOUT_S=30 NCCL_DEBUG=WARN
  if [ "$NGPU" -gt 0 ]; then
    export SHARDLAB_REQUIRE_GPU=1 # a gpu test that skips is now a failure
    record env gpus PASS 0 "$NGPU GPU(s), SHARDLAB_REQUIRE_GPU=1"
  elif [ "$DRY_RUN" = 0 ]; then
    record env gpus SKIP 0 "nvidia-smi sees no GPU: the gpu tests may skip"
  fi
  BIN="$B/bin"
  RUNNER="$BIN/shardlab-run"
  # 1. environment
  NONFATAL=1 run env nvidia-smi 20 nvidia-smi --query-gpu=name,driver_version,compute_mode,compute_cap,memory.total --format=csv
  NONFATAL=1 run env nccl-location 20 python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))'
  run env libraries 30 bash -c 'for f in "$1"/bin/* "$1"/ompi/bin/orterun; do echo "== $f"; ldd "$f"; done >"$2"; ! grep "not found" "$2"' _ "$B" "$OUT/ldd.txt"
  # 2. kernels
  run kernels device-test 120 "$BIN/shardlab_cuda_device_test" --gtest_output="xml:$OUT/kernels.xml"
  run kernels build-test 60 "$BIN/shardlab_cuda_build_test" --gtest_filter='-*HiddenDevices*'
  NONFATAL=1 run kernels racecheck 90 compute-sanitizer --tool racecheck --error-exitcode 1 \
    "$BIN/shardlab_cuda_device_test" --gtest_filter='*Softmax*:*BiasGrad*'
  NONFATAL=1 run kernels memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 1 \
    "$BIN/shardlab_cuda_device_test" --gtest_filter='*Softmax*:*BiasGrad*:*Embedding*'
  # 3. MPI and NCCL
  run mpi hostname 30 mpirun -np 2 hostname
  run nccl nccl-test 90 "$BIN/shardlab_nccl_test" --gtest_output="xml:$OUT/nccl.xml"
  run nccl transport-test 90 "$BIN/shardlab_gpu_transport_test" --gtest_output="xml:$OUT/transport.xml"
  run preflight gpu-too-small 30 "${EXPECT_GPU_REFUSED[@]}" "$RUNNER" "${TOO_LARGE_FOR_A_GPU[@]}" --device cuda
  # 4. one rank, GPU against CPU
  run parity one-rank-nccl 150 env SHARDLAB_RUN="$RUNNER" "$BIN/shardlab_gpu_parity_test" \
    --gtest_filter='*nccl_1' --gtest_output="xml:$OUT/parity-one-rank.xml"
  run parity gpu-job 120 env SHARDLAB_RUN="$RUNNER" "$BIN/shardlab_gpu_job_test"
  # 5. four staged ranks against CPU, and one with CUDA_LAUNCH_BLOCKING=1
  run parity four-staged 240 env SHARDLAB_RUN="$RUNNER" "$BIN/shardlab_gpu_parity_test" \
    --gtest_filter='*staged_4' --gtest_output="xml:$OUT/parity-four-ranks.xml"
  run parity launch-blocking 120 env SHARDLAB_RUN="$RUNNER" CUDA_LAUNCH_BLOCKING=1 \
    "$BIN/shardlab_gpu_parity_test" --gtest_filter='*fsdp_staged_4'
  # 6. speed against PyTorch
  run speed engine-ddp 120 "$RUNNER" --strategy ddp --ranks 1 --device cuda --steps 200 --trace "$WORK/speed.trace" \
    --summary-json "$OUT/speed-summary.json" -q
  NONFATAL=1 run speed torch 150 python3 "$ROOT/scripts/bench_torch_step.py" --device cuda \
    --engine-trace "$WORK/speed.trace" --out "$OUT/bench-torch.json"
  # 7. a killed rank: the job must fail, within its bound
  run fault killed-rank 90 env SHARDLAB_FAULT=1:3:kill "${EXPECT_KILLED[@]}" "$RUNNER" --strategy ddp --ranks 4 \
    --device cuda+mpi-staged --steps 10 -q
  # 8. what GPU ranks refuse, and where such a job runs instead
  run refusal bf16-on-cuda 30 "${EXPECT_BF16_REFUSED[@]}" "$RUNNER" --strategy fsdp --ranks 1 --device cuda \
    --param-dtype bf16 --steps 1 -q
  run refusal bf16-auto-cpu 60 "${EXPECT_BF16_ON_CPU[@]}" "$RUNNER" --strategy fsdp --ranks 2 --param-dtype bf16 \
    --steps 2 -q
  if [ "$DRY_RUN" = 1 ]; then
    echo "then: table.txt (every check's status and time; the step-time line: engine median vs torch foreach/fused)"
    rm -rf "$WORK"
    exit 0
  fi
  speed="n/a"
  if [ -s "$OUT/bench-torch.json" ]; then
    speed=$(python3 - "$OUT/bench-torch.json" <<'PY' 2>>"$LOG" || echo n/a
import json, sys
b = json.load(open(sys.argv[1]))
def ms(d):
    return "%.3f" % d["median_ms"] if isinstance(d, dict) and d.get("median_ms") is not None else "n/a"
v = b.get("variants", {})
print("engine %s (median, step 0 left out) | torch foreach %s | torch fused %s" % (
    ms(b.get("engine")), ms(v.get("foreach")), ms(v.get("fused"))))
PY
    )
  fi
  {
    echo
    echo "ShardLab GPU check (bundle): $NGPU GPU(s); $(head -2 "$B/MANIFEST" | tail -1)"
    printf '%-8s %-22s %-6s %5s  %s\n' STAGE CHECK STATUS SECS NOTE
    tail -n +2 "$RESULTS" | while IFS=$'\t' read -r stage name status secs note; do
      printf '%-8s %-22s %-6s %5s  %s\n' "$stage" "$name" "$status" "$secs" "$note"
    done
    echo "parity: $(grep -h '\[ parity' "$LOG" | sed 's/\[ parity   \] //' | paste -sd ';' - || true)"
    echo "step time (ms): $speed"
    echo "total ${SECONDS}s; logs in $OUT"
  } | tee "$TABLE" | tee -a "$LOG"
  rm -rf "$WORK"
  exit $FAILED
fi

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
  # The GPU pre-flight check: refused with exit 2 before anything starts.
  run preflight gpu-too-small 30 "${EXPECT_GPU_REFUSED[@]}" "$RUNNER" "${TOO_LARGE_FOR_A_GPU[@]}" --device cuda
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
