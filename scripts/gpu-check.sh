#!/usr/bin/env bash
# ShardLab GPU check. Two modes:
#
#   scripts/gpu-check.sh --bundle gpu-bundle/shardlab-gpu.tar.xz   # bundle mode (the GPU machine)
#   scripts/gpu-check.sh --bundle ... --dry-run                   # lists the stages, runs nothing
#   scripts/gpu-check.sh                                          # build mode (a machine with the deps)
#
# BUNDLE MODE runs the prebuilt bundle of scripts/gpu-bundle.sh (the GPU machine has
# no Open MPI, OpenBLAS or build dependencies and no network, so it cannot build).
# It ends by itself within 360 s (GPU_CHECK_END_S): each stage's time limit is
# clipped to the time left, and a stage with too little left is skipped. The stages,
# in order (--dry-run lists each with its limit; the limits add up to at most 355 s):
#   env       unpack; nvidia-smi (GPUs, compute mode); the machine (/dev/shm, network
#             interfaces, cores, memory); driver, runtime, cuBLAS and NCCL versions of
#             the libraries the binaries load; ldd of every binary
#   kernels   shardlab_cuda_device_test, shardlab_cuda_build_test, compute-sanitizer
#             racecheck and memcheck (warnings only: gVisor's runtime refuses it)
#   mpi       the MPI gate: a real two-rank MPI program of ours (shardlab-bench-
#             collectives at 4 KiB). If it fails, every later stage that starts
#             mpirun is skipped with that reason
#   nccl      shardlab_nccl_test, shardlab_gpu_transport_test (one-rank MPI
#             singletons), and the transport test built with each cudaStreamWaitEvent
#             of the NCCL transport removed, which must fail with its message
#   preflight a model far larger than the GPU is refused (exit 2, naming GPU 0)
#   parity    one NCCL rank (ddp, fsdp) against CPU with SHARDLAB_TEST_COMM_DELAY_US
#             (every collective starts 5 ms late, so a missing wait reads stale data);
#             the GPU job test; four staged ranks (ddp, fsdp, tp, pipeline) against
#             CPU; after a parity failure only, fsdp on NCCL with CUDA_LAUNCH_BLOCKING=1
#   speed     a 200-step one-rank ddp job against PyTorch eager (foreach and fused)
#   fault     a staged 4-rank job with SHARDLAB_FAULT=1:3:kill must fail, naming rank 1
#   refusal   --device cuda --param-dtype bf16 is refused (exit 2); under --device auto
#             the same job runs on CPU ranks
# Checks that need several processes on one GPU are skipped, with the reason, when the
# GPU's compute mode is not Default. SHARDLAB_REQUIRE_GPU=1 whenever nvidia-smi sees a
# GPU (a gpu test that skips then fails), SHARDLAB_GPU_TIMEOUT_S=30, NCCL_DEBUG=WARN,
# XDG_CACHE_HOME in the scratch folder (the calibration is measured once per run).
# Writes at most 6 files under $OUT: log.txt (everything), table.txt (rewritten after
# every stage and at exit, even on SIGTERM; a SIGKILL leaves the last one),
# results.tsv, nvidia-smi.txt, bench-torch.json, reports.tgz (gtest XML reports,
# ldd.txt, the speed job's trace and summary, the bundle's MANIFEST). Exit 0 when
# nothing FAILed.
#
# BUILD MODE (the original check) configures and builds the CUDA backend here and runs
# ctest -L gpu and a few jobs; without a GPU it builds the CUDA code only.
#
# Environment: OUT (default ./gpu-check-out), GPU_CHECK_END_S (the hard end, default
# 360 s in bundle mode, 450 s in build mode), BUILD_DIR (build mode, default
# build-gpu-check), JOBS, STEPS (engine steps, default 20), CUDA_ARCH.
set -uo pipefail

BUNDLE="${BUNDLE:-}"
DRY_RUN=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) BUNDLE="${2:-}"; shift 2 || shift ;;
    --bundle=*) BUNDLE="${1#--bundle=}"; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "gpu-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$DRY_RUN" = 1 ] && [ -z "$BUNDLE" ]; then
  echo "gpu-check: --dry-run lists bundle mode's stages: give --bundle too" >&2
  exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
OUT="${OUT:-$ROOT/gpu-check-out}"
BUILD_DIR="${BUILD_DIR:-build-gpu-check}"
STEPS="${STEPS:-20}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 4)}"
if [ -n "$BUNDLE" ]; then END_S="${GPU_CHECK_END_S:-360}"; else END_S="${GPU_CHECK_END_S:-450}"; fi
[[ "$END_S" =~ ^[0-9]+$ ]] || { echo "gpu-check: GPU_CHECK_END_S=$END_S is not a whole number of seconds" >&2; exit 2; }
KILL_AFTER=5 # a stage that ignores SIGTERM at its limit gets SIGKILL this much later
RESERVE=5    # seconds kept after the last stage for the table and the archive
# Open MPI refuses root without these (GPU machines often run as root); harmless otherwise.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
LOG="$OUT/log.txt"
RESULTS="$OUT/results.tsv"
TABLE="$OUT/table.txt"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")" # scratch: not returned
REPORTS="$WORK/reports"                                # returned as $OUT/reports.tgz
mkdir -p "$REPORTS"
if [ "$DRY_RUN" = 0 ]; then
  mkdir -p "$OUT"
  OUT="$(cd "$OUT" && pwd)"
  LOG="$OUT/log.txt" RESULTS="$OUT/results.tsv" TABLE="$OUT/table.txt"
  : >"$LOG"
  printf 'stage\tname\tstatus\tseconds\tlimit\tnote\n' >"$RESULTS"
fi
START=$(date +%s)
FAILED=0
DRY_TOTAL=0
LAST_STATUS="" # the status run() recorded last: PASS, FAIL, WARN or SKIP
STAGE_PID=""
CURRENT=""   # "stage/name" while a stage runs
ENDED_BY=""  # set by the signal trap

say() { echo "gpu-check: $*" | tee -a "$LOG"; }
elapsed() { echo $(($(date +%s) - START)); }
record() { # stage name status seconds limit note
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$RESULTS"
  [ "$3" = "FAIL" ] && FAILED=1
  return 0
}
# Reasons that skip a stage, named by the stage's NEEDS words:
#   mpi         the stage starts mpirun: skipped when the MPI gate failed
#   shared-gpu  several processes on one GPU: skipped when its compute mode forbids it
MPI_DOWN=""
GPU_NOT_SHARED=""

# run STAGE NAME LIMIT cmd...: runs cmd with a time limit (clipped to the time left
# before the hard end), its output into log.txt, and records PASS/FAIL/WARN/SKIP.
# NEEDS (words above) and SKIP_BECAUSE (a reason) skip it; NONFATAL=1 makes a failure
# a WARN; exit status 77 means the check had nothing to test here (SKIP).
run() {
  local stage="$1" name="$2" limit="$3"
  shift 3
  if [ "$DRY_RUN" = 1 ]; then
    printf '%-9s %-22s %4ss  %-16s %s\n' "$stage" "$name" "$limit" "${NEEDS:--}" "$(shown "$@")"
    DRY_TOTAL=$((DRY_TOTAL + limit))
    return 0
  fi
  local why="${SKIP_BECAUSE:-}" need
  for need in ${NEEDS:-}; do
    case "$need" in
      mpi) [ -z "$why" ] && [ -n "$MPI_DOWN" ] && why="$MPI_DOWN" ;;
      shared-gpu) [ -z "$why" ] && [ -n "$GPU_NOT_SHARED" ] && why="$GPU_NOT_SHARED" ;;
    esac
  done
  local left=$((END_S - $(elapsed) - KILL_AFTER - RESERVE))
  if [ -z "$why" ] && [ "$left" -lt 3 ]; then why="the hard end at ${END_S} s is near: no time left"; fi
  if [ -n "$why" ]; then
    say "$stage/$name: skipped: $why"
    record "$stage" "$name" SKIP 0 "$limit" "$why"
    LAST_STATUS=SKIP
    write_outputs
    return 2
  fi
  local note=""
  if [ "$limit" -gt "$left" ]; then
    note="limit clipped from ${limit} s by the hard end; "
    limit=$left
  fi
  {
    echo
    echo "===== $stage / $name ($(date -u +%H:%M:%S), limit ${limit} s) ====="
    echo "\$ $*"
  } >>"$LOG"
  CURRENT="$stage/$name"
  write_outputs
  local t0 rc
  t0=$(date +%s)
  # In the background, so that a signal to this script is handled at once (bash runs
  # a trap only after the foreground command ends): the trap then stops the stage.
  timeout --kill-after="$KILL_AFTER" "$limit" "$@" >>"$LOG" 2>&1 </dev/null &
  STAGE_PID=$!
  wait "$STAGE_PID"
  rc=$?
  STAGE_PID=""
  CURRENT=""
  local dt=$(($(date +%s) - t0))
  local bad=FAIL
  [ "${NONFATAL:-0}" = 1 ] && bad=WARN
  if [ $rc -eq 0 ]; then
    record "$stage" "$name" PASS "$dt" "$limit" "${note%; }"
  elif [ $rc -eq 77 ]; then
    record "$stage" "$name" SKIP "$dt" "$limit" "${note}the check skipped, as it does without a GPU (see log.txt)"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    record "$stage" "$name" "$bad" "$dt" "$limit" "${note}timed out after ${limit} s"
  else
    record "$stage" "$name" "$bad" "$dt" "$limit" "${note}exit $rc (see log.txt)"
  fi
  LAST_STATUS=$(tail -1 "$RESULTS" | cut -f3)
  say "$stage/$name: exit $rc in ${dt} s: $LAST_STATUS"
  write_outputs
  return $rc
}

# A command as --dry-run shows it: `bash -c SCRIPT NAME ARGS` as NAME ARGS.
shown() {
  local out=() skip=0 a
  for a in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    if [ "$a" = -c ] && [ "${out[${#out[@]}-1]:-}" = bash ]; then unset 'out[${#out[@]}-1]'; skip=1; continue; fi
    out+=("$a")
  done
  echo "${out[*]}"
}

# The table (table.txt) from results.tsv, and reports.tgz from the reports folder:
# after every stage, so that a run killed from outside still leaves both.
TABLE_HEAD=() # lines above the table, filled in as the environment stage learns them
SUMMARY_LINES=() # lines below it (parity, step time), filled in at the end
write_outputs() {
  [ "$DRY_RUN" = 1 ] && return 0
  local pass fail warn skip
  pass=$(tail -n +2 "$RESULTS" | awk -F'\t' '$3 == "PASS"' | wc -l)
  fail=$(tail -n +2 "$RESULTS" | awk -F'\t' '$3 == "FAIL"' | wc -l)
  warn=$(tail -n +2 "$RESULTS" | awk -F'\t' '$3 == "WARN"' | wc -l)
  skip=$(tail -n +2 "$RESULTS" | awk -F'\t' '$3 == "SKIP"' | wc -l)
  {
    local line
    for line in "${TABLE_HEAD[@]}"; do echo "$line"; done
    printf '%-9s %-22s %-6s %5s %5s  %s\n' STAGE CHECK STATUS SECS LIMIT NOTE
    tail -n +2 "$RESULTS" | while IFS=$'\t' read -r stage name status secs limit note; do
      printf '%-9s %-22s %-6s %5s %5s  %s\n' "$stage" "$name" "$status" "$secs" "$limit" "$note"
    done
    for line in "${SUMMARY_LINES[@]}"; do echo "$line"; done
    if [ -n "$CURRENT" ]; then echo "running: $CURRENT (at $(elapsed) s; if this is the last line, the run was killed here)"; fi
    if [ -n "$ENDED_BY" ]; then echo "ended: by $ENDED_BY after $(elapsed) s"; fi
    echo "passed $pass, failed $fail, warned $warn, skipped $skip; $(elapsed) s of the ${END_S} s hard end"
  } >"$TABLE.tmp" && mv "$TABLE.tmp" "$TABLE"
  if [ -n "$BUNDLE" ]; then
    tar -C "$WORK" -czf "$WORK/reports.tgz" reports 2>/dev/null && mv "$WORK/reports.tgz" "$OUT/reports.tgz"
  fi
  return 0
}

on_signal() { # the run is being stopped from outside: stop the stage, keep the table
  ENDED_BY="signal $1"
  if [ -n "$STAGE_PID" ]; then
    kill -TERM "$STAGE_PID" 2>/dev/null
    wait "$STAGE_PID" 2>/dev/null
  fi
  if [ -n "$CURRENT" ]; then
    record "${CURRENT%%/*}" "${CURRENT#*/}" FAIL "" "" "stopped by signal $1 while it ran"
  fi
  STAGE_PID="" CURRENT=""
  say "stopped by signal $1 after $(elapsed) s"
  exit "$2"
}
finish() {
  local rc=$?
  trap - EXIT
  write_outputs
  if [ "$DRY_RUN" = 0 ] && [ -n "$BUNDLE" ]; then
    cat "$TABLE" >>"$LOG"
    cat "$TABLE" # the last lines of the output, which the device call returns
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap 'on_signal TERM 143' TERM
trap 'on_signal INT 130' INT
trap 'on_signal HUP 129' HUP
trap finish EXIT


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
# EXPECT_PLANTED_FAILURE MESSAGE cmd...: a planted removal (the transport test built
# without one cudaStreamWaitEvent, tests/cuda/CMakeLists.txt) passes when the test
# fails with MESSAGE (TransportTest.cpp's name for what that missing wait left
# behind); 77 (SKIP) when it skipped for want of a GPU.
EXPECT_PLANTED_FAILURE=(bash -c 'want="$1"; shift; out=$("$@" 2>&1); rc=$?; printf "%s\n" "$out"
  echo "exit status $rc (a failure naming \"$want\" expected)"
  if grep -q "\[  SKIPPED \]" <<<"$out" && ! grep -q "\[  FAILED  \]" <<<"$out"; then exit 77; fi
  [ "$rc" -ne 0 ] && grep -qF "$want" <<<"$out"' expect-planted-failure)
# The driver, runtime, cuBLAS and NCCL versions of the libraries the binaries load
# (the same names, through the same LD_LIBRARY_PATH), and where each was found.
cat >"$WORK/versions.py" <<'PY'
import ctypes, sys
def load(name):
    try:
        return ctypes.CDLL(name)
    except OSError as e:
        print("%s: not loadable: %s" % (name, e))
        return None
def where(name):
    for line in open("/proc/self/maps"):
        if name in line:
            return line.split()[-1]
    return "?"
found = {}
v = ctypes.c_int(0)
rt = load("libcudart.so.13")
if rt is not None:
    rt.cudaDriverGetVersion(ctypes.byref(v)); d = v.value
    rt.cudaRuntimeGetVersion(ctypes.byref(v)); r = v.value
    found["driver"] = "%d.%d" % (d // 1000, d % 1000 // 10) if d else "none (no CUDA driver)"
    found["runtime"] = "%d.%d (%s)" % (r // 1000, r % 1000 // 10, where("libcudart.so"))
cb = load("libcublas.so.13")
if cb is not None:
    parts = []
    for prop in (0, 1, 2):  # MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
        cb.cublasGetProperty(prop, ctypes.byref(v)); parts.append(str(v.value))
    found["cuBLAS"] = "%s (%s)" % (".".join(parts), where("libcublas.so"))
nc = load("libnccl.so.2")
if nc is not None:
    nc.ncclGetVersion(ctypes.byref(v)); n = v.value
    found["NCCL"] = "%d.%d.%d (%s)" % (n // 10000, n % 10000 // 100, n % 100, where("libnccl.so"))
line = "versions: " + " | ".join("%s %s" % kv for kv in found.items())
print(line)
open(sys.argv[1], "w").write(line + "\n")
sys.exit(0 if len(found) == 4 else 1)
PY
cat >"$WORK/machine.sh" <<'SH'
uname -a; . /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"; echo "cores: $(nproc)"
free -m 2>/dev/null || head -3 /proc/meminfo
echo "--- /dev/shm (Open MPI vader needs it) and /tmp"; df -h /dev/shm /tmp; ls -ld /dev/shm
echo "--- network interfaces (PMIx and NCCL need one, or lo)"
ip -br addr 2>/dev/null || { ls /sys/class/net; cat /proc/net/dev; }
echo "--- who: $(id); HOME=${HOME:-unset}; XDG_CACHE_HOME=${XDG_CACHE_HOME:-unset}"
echo "--- python3: $(command -v python3) $(python3 --version 2>&1)"
echo "--- compute-sanitizer: $(command -v compute-sanitizer || echo none)"
SH
if [ -n "$BUNDLE" ]; then
  NGPU=0
  export XDG_CACHE_HOME="$WORK/cache" # the launcher caches its calibration there: once per run
  if [ "$DRY_RUN" = 1 ]; then
    echo "gpu-check --dry-run: bundle $BUNDLE, output $OUT, hard end ${END_S} s; the stages in order"
    echo "(stage, check, time limit, what skips it, command):"
    B="<unpacked bundle>"
  else
    TABLE_HEAD=("ShardLab GPU check (bundle $BUNDLE), $(date -u '+%F %H:%M UTC'), hard end ${END_S} s")
    write_outputs
  fi
  SANITIZER="$(command -v compute-sanitizer || { [ -x /usr/local/cuda/bin/compute-sanitizer ] && echo /usr/local/cuda/bin/compute-sanitizer; } || true)"

  # 1. environment ------------------------------------------------------------------
  if [ "$DRY_RUN" = 0 ] && [ -d "$BUNDLE" ]; then # an unpacked bundle (scripts/gpu-check-test's)
    B="$(cd "$BUNDLE" && pwd)"
    SKIP_BECAUSE="the bundle is a folder: nothing to unpack" run env unpack 10 true
  else
    # tar needs xz for -J; Python's tarfile does not (either may be missing).
    run env unpack 10 bash -c 'tar -C "$2" -xJf "$1" || python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$1" "$2"' \
      untar "$BUNDLE" "$WORK"
    [ "$DRY_RUN" = 0 ] && B="$WORK/shardlab-gpu"
  fi
  BIN="$B/bin"
  RUNNER="$BIN/shardlab-run"
  if [ "$DRY_RUN" = 0 ]; then
    [ -f "$B/env.sh" ] || { say "$B/env.sh missing: not a bundle"; record env bundle FAIL 0 0 "no env.sh in $B"; exit 1; }
    [ -f "$B/MANIFEST" ] && cp "$B/MANIFEST" "$REPORTS/MANIFEST"
    TABLE_HEAD+=("bundle: $(sed -n 2p "$B/MANIFEST" 2>/dev/null)")
  fi
  # nvidia-smi before env.sh: it is the machine's program, on the machine's libraries.
  if [ "$DRY_RUN" = 0 ] && ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "nvidia-smi not found: no NVIDIA GPU here" >"$OUT/nvidia-smi.txt"
    SKIP_BECAUSE="nvidia-smi not found: no NVIDIA GPU here" run env nvidia-smi 8 true
  else
    run env nvidia-smi 8 bash -c 'nvidia-smi -L >"$1" 2>&1 || exit 1
      nvidia-smi --query-gpu=index,name,driver_version,compute_mode,compute_cap,memory.total,memory.used --format=csv >>"$1" 2>&1
      nvidia-smi >>"$1" 2>&1; cat "$1"' nvidia-smi-into "$OUT/nvidia-smi.txt"
  fi
  if [ "$DRY_RUN" = 0 ]; then
    NGPU=$(grep -c '^GPU ' "$OUT/nvidia-smi.txt" || true)
    if [ "$NGPU" -gt 0 ]; then
      gpus=$(nvidia-smi --query-gpu=name,driver_version,compute_mode --format=csv,noheader 2>/dev/null | sort | uniq -c | xargs)
      modes=$(nvidia-smi --query-gpu=compute_mode --format=csv,noheader 2>/dev/null | sort -u | xargs)
      TABLE_HEAD+=("$NGPU GPU(s) (count, name, driver, compute mode): $gpus")
      if [ -n "$modes" ] && [ "$modes" != "Default" ]; then
        GPU_NOT_SHARED="GPU compute mode is $modes, not Default: several processes cannot share one GPU"
      fi
      export SHARDLAB_REQUIRE_GPU=1 # a gpu test that skips is now a failure
    else
      TABLE_HEAD+=("no GPU: nvidia-smi sees none, so the gpu tests skip (SHARDLAB_REQUIRE_GPU is not set)")
    fi
    # shellcheck disable=SC1091
    . "$B/env.sh"
    { echo "===== env.sh: LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; echo "PATH=$PATH"; echo "NCCL_HOME=${NCCL_HOME:-}"; } >>"$LOG"
  fi
  export SHARDLAB_GPU_TIMEOUT_S=30 NCCL_DEBUG=WARN
  # Programs that are not the bundle's run with the machine's own libraries.
  if [ -n "${SHARDLAB_SYSTEM_LD_LIBRARY_PATH:-}" ]; then
    ON_SYSTEM_LIBS=(env LD_LIBRARY_PATH="$SHARDLAB_SYSTEM_LD_LIBRARY_PATH")
  else
    ON_SYSTEM_LIBS=(env -u LD_LIBRARY_PATH)
  fi
  run env machine 5 bash "$WORK/machine.sh"
  NONFATAL=1 run env versions 10 python3 "$WORK/versions.py" "$WORK/versions.txt"
  [ -s "$WORK/versions.txt" ] && TABLE_HEAD+=("$(cat "$WORK/versions.txt")")
  run env libraries 7 bash -c 'for f in "$1"/bin/* "$1"/ompi/bin/orterun; do [ -e "$f" ] || continue; echo "== $f"; ldd "$f"; done >"$2"
    grep -E "== |libstdc|not found" "$2"; ! grep -q "not found" "$2"' ldd-every-binary "$B" "$REPORTS/ldd.txt"

  # 2. kernels ------------------------------------------------------------------------
  run kernels device-test 25 "$BIN/shardlab_cuda_device_test" --gtest_output="xml:$REPORTS/kernels.xml"
  run kernels build-test 5 "$BIN/shardlab_cuda_build_test" --gtest_filter='-*HiddenDevices*'
  no_sanitizer=""
  [ -z "$SANITIZER" ] && no_sanitizer="compute-sanitizer not found"
  SANITIZER="${SANITIZER:-compute-sanitizer}"
  SKIP_BECAUSE="$no_sanitizer" NONFATAL=1 run kernels racecheck 18 "$SANITIZER" --tool racecheck --error-exitcode 1 \
    "$BIN/shardlab_cuda_device_test" --gtest_filter='*Softmax*:*BiasGrad*'
  SKIP_BECAUSE="$no_sanitizer" NONFATAL=1 run kernels memcheck 14 "$SANITIZER" --tool memcheck --error-exitcode 1 \
    "$BIN/shardlab_cuda_device_test" --gtest_filter='*Softmax*:*BiasGrad*:*Embedding*'

  # 3. the MPI gate, NCCL ---------------------------------------------------------------
  run mpi gate 12 mpirun -np 2 "$BIN/shardlab-bench-collectives" --repeats 10 --sizes-kib 4
  if [ "$DRY_RUN" = 0 ] && [ "$LAST_STATUS" != PASS ]; then
    MPI_DOWN="the MPI gate failed: mpirun -np 2 shardlab-bench-collectives, $(tail -1 "$RESULTS" | cut -f6)"
  fi
  # One-process MPI singletons: they need no mpirun, so they run even when the gate failed.
  run nccl nccl-test 15 "$BIN/shardlab_nccl_test" --gtest_output="xml:$REPORTS/nccl.xml"
  run nccl transport-test 9 "$BIN/shardlab_gpu_transport_test" --gtest_output="xml:$REPORTS/transport.xml"
  run nccl planted-ready 8 "${EXPECT_PLANTED_FAILURE[@]}" "the communication stream did not wait for ready" \
    "$BIN/shardlab_gpu_transport_test_without_ready_wait" --gtest_filter='*CollectivesGiveTheOneRankAnswer/Nccl'
  run nccl planted-end 8 "${EXPECT_PLANTED_FAILURE[@]}" "the compute stream did not wait for its end" \
    "$BIN/shardlab_gpu_transport_test_without_end_wait" --gtest_filter='*CollectivesGiveTheOneRankAnswer/Nccl'
  # Refused before mpirun starts: needs no MPI.
  run preflight gpu-too-small 8 "${EXPECT_GPU_REFUSED[@]}" "$RUNNER" "${TOO_LARGE_FOR_A_GPU[@]}" --device cuda

  # 4. parity ---------------------------------------------------------------------------
  parity_failed=0
  NEEDS=mpi run parity one-rank-nccl 35 env SHARDLAB_RUN="$RUNNER" SHARDLAB_TEST_COMM_DELAY_US=5000 \
    "$BIN/shardlab_gpu_parity_test" --gtest_filter='*nccl_1' --gtest_output="xml:$REPORTS/parity-one-rank.xml"
  [ "$LAST_STATUS" = FAIL ] && parity_failed=1
  NEEDS=mpi run parity gpu-job 18 env SHARDLAB_RUN="$RUNNER" "$BIN/shardlab_gpu_job_test" \
    --gtest_output="xml:$REPORTS/gpu-job.xml"
  NEEDS="mpi shared-gpu" run parity four-staged 50 env SHARDLAB_RUN="$RUNNER" "$BIN/shardlab_gpu_parity_test" \
    --gtest_filter='*staged_4' --gtest_output="xml:$REPORTS/parity-four-ranks.xml"
  [ "$LAST_STATUS" = FAIL ] && parity_failed=1
  # The control run for a parity failure: if fsdp on NCCL passes with every launch
  # synchronous, the failure was stream ordering, not arithmetic.
  control_skip=""
  [ "$parity_failed" = 0 ] && control_skip="no parity failure to tell apart"
  SKIP_BECAUSE="$control_skip" NEEDS=mpi run parity launch-blocking 15 env SHARDLAB_RUN="$RUNNER" CUDA_LAUNCH_BLOCKING=1 \
    "$BIN/shardlab_gpu_parity_test" --gtest_filter='*fsdp_nccl_1'

  # 5. speed against PyTorch ----------------------------------------------------------------
  NEEDS=mpi run speed engine-ddp 18 "$RUNNER" --strategy ddp --ranks 1 --device cuda --steps 200 \
    --trace "$REPORTS/speed.trace" --summary-json "$REPORTS/speed-summary.json" -q
  NONFATAL=1 run speed torch 30 "${ON_SYSTEM_LIBS[@]}" bash -c 't=(); [ -s "$2" ] && t=(--engine-trace "$2")
    python3 "$1" --device cuda "${t[@]}" --out "$3"' torch-bench "$ROOT/scripts/bench_torch_step.py" "$REPORTS/speed.trace" \
    "$OUT/bench-torch.json"

  # 6. a killed rank: the job must fail, naming it ----------------------------------------
  NEEDS="mpi shared-gpu" run fault killed-rank 12 env SHARDLAB_FAULT=1:3:kill "${EXPECT_KILLED[@]}" "$RUNNER" \
    --strategy ddp --ranks 4 --device cuda+mpi-staged --steps 10 -q

  # 7. what GPU ranks refuse, and where such a job runs instead ------------------------------
  run refusal bf16-on-cuda 5 "${EXPECT_BF16_REFUSED[@]}" "$RUNNER" --strategy fsdp --ranks 1 --device cuda \
    --param-dtype bf16 --steps 1 -q
  NEEDS=mpi run refusal bf16-auto-cpu 10 "${EXPECT_BF16_ON_CPU[@]}" "$RUNNER" --strategy fsdp --ranks 2 \
    --param-dtype bf16 --steps 2 -q

  if [ "$DRY_RUN" = 1 ]; then
    echo "the limits add up to ${DRY_TOTAL} s; the hard end is ${END_S} s, of which ${RESERVE} s are kept for the table"
    echo "then: table.txt (every check's status, seconds and limit; the parity and step-time lines);"
    echo "under \$OUT at most 6 files: log.txt table.txt results.tsv nvidia-smi.txt bench-torch.json reports.tgz"
    if [ "$DRY_TOTAL" -gt $((END_S - RESERVE)) ]; then
      echo "gpu-check: the limits (${DRY_TOTAL} s) do not fit in the hard end less the table's ${RESERVE} s" >&2
      exit 1
    fi
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
  parity=$(grep -h '\[ parity' "$LOG" | sed 's/\[ parity   \] //' | paste -sd ';' - || true)
  SUMMARY_LINES=("parity: ${parity:-no parity job ran}"
    "step time (ms): $speed")
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
  record gpu detect PASS 0 "" "$NGPU GPU(s)"
else
  say "no GPU: nvidia-smi found no NVIDIA GPU; building the CUDA code only"
  record gpu detect SKIP 0 "" "no GPU"
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
    record built "$t" PASS 0 "" ""
  elif [ "$NGPU" -eq 0 ] && { [ "$t" = shardlab-run ] || [ "$t" = shardlab-worker ]; }; then
    record built "$t" WARN 0 "" "not built (needed only for the engine jobs)"
  else
    record built "$t" FAIL 0 "" "not built"
  fi
done
if [ "$configured" -eq 0 ]; then
  say "configure failed (see the CMake errors in log.txt): nothing was built"
elif [ "$HAVE_CUDA_BUILD" -eq 0 ]; then
  say "CMake did not find CUDA + cuBLAS + NCCL: the CUDA backend was not built"
  record build cuda-backend FAIL 0 "" "CUDA backend OFF"
fi

# --- 3. tests ------------------------------------------------------------------------
if [ "$configured" -eq 1 ]; then
  # Runs everywhere: the no-GPU path is graceful.
  run ctest cuda-build 60 ctest --test-dir "$BUILD_DIR" -L cuda-build --output-on-failure --timeout 30 \
    --no-tests=error
else
  record ctest cuda-build FAIL 0 "" "not configured"
fi
if [ "$NGPU" -gt 0 ]; then
  run ctest gpu 150 ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure --timeout 120 --no-tests=error \
    --output-junit "$OUT/ctest-gpu.xml"
else
  record ctest gpu SKIP 0 "" "no GPU"
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
  record engine jobs SKIP 0 "" "no GPU"
elif [ ! -x "$RUNNER" ]; then
  say "engine jobs: $RUNNER was not built"
  record engine jobs FAIL 0 "" "shardlab-run not built"
elif ! command -v mpirun >/dev/null 2>&1; then
  say "engine jobs: mpirun not found (Open MPI is not installed here): skipped"
  record engine jobs SKIP 0 "" "no mpirun"
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
  record bench torch SKIP 0 "" "no GPU"
elif ! python3 -c "import torch" >/dev/null 2>&1; then
  say "bench: PyTorch not importable: skipped"
  record bench torch SKIP 0 "" "no torch"
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

if [ "$NGPU" -eq 0 ]; then
  TABLE_HEAD=("ShardLab GPU check: no GPU: skipped (the CUDA code was configured and built only)")
else
  TABLE_HEAD=("ShardLab GPU check: $NGPU GPU(s), sm arch $CUDA_ARCH")
fi
SUMMARY_LINES=("step time (ms): engine ddp $engine_ms (placeholder: wall/steps) | torch eager $torch_ms")
write_outputs
cat "$TABLE" | tee -a "$LOG"
exit $FAILED
