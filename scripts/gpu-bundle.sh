#!/usr/bin/env bash
# ShardLab GPU bundle: builds the engine with its CUDA backend HERE (the GPU machine
# has no Open MPI, OpenBLAS, GoogleTest, CLI11 or nlohmann-json, and no network) and
# packs what a bare CUDA image needs to run it, into gpu-bundle/ (ignored by git):
#
#   gpu-bundle/shardlab-gpu/          the unpacked bundle (scripts/check-bundle-bare runs it)
#   gpu-bundle/shardlab-gpu.tar.xz    the same, packed: what the device call carries (<= 64 MiB)
#
# In the bundle:
#   bin/      stripped shardlab-run, shardlab-worker, shardlab-bench-collectives and the
#             GPU tests (shardlab_cuda_device_test, shardlab_nccl_test,
#             shardlab_gpu_transport_test, shardlab_gpu_job_test, shardlab_cuda_build_test)
#   lib/      every shared library ldd names that is not glibc or CUDA's: OpenBLAS,
#             libgfortran, libquadmath, hwloc, libevent, zlib, ...; libstdc++ and
#             libgcc_s in lib/fallback, used only where the machine's are too old
#   ompi/     Debian's Open MPI 4.1 prefix (mpirun, its MCA components, help files),
#             relocated with OPAL_PREFIX; pmix2/ its PMIx, relocated with PMIX_INSTALL_PREFIX
#   env.sh    scripts/gpu-bundle-env.sh: `. env.sh` sets PATH, LD_LIBRARY_PATH, OPAL_PREFIX, ...; it finds cuBLAS,
#             the CUDA runtime and NCCL in the machine's pip packages (nvidia-*), which
#             are not carried (docs/gpu.md, "The GPU bundle")
#   MANIFEST  what was built, from which commit, and each file's size
#
# Usage: scripts/gpu-bundle.sh [--no-build]     (--no-build: pack the last build again)
# Environment: BUNDLE_BUILD_DIR (default build-gpu-bundle), CUDA_ARCH (default 90:
# sm_90 machine code plus compute_90 PTX), JOBS (default 2).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${BUNDLE_BUILD_DIR:-build-gpu-bundle}"
CUDA_ARCH="${CUDA_ARCH:-90}"
JOBS="${JOBS:-2}"
OUTDIR="$ROOT/gpu-bundle"
B="$OUTDIR/shardlab-gpu"
LIMIT_MIB=64
BUILD_IT=1
[ "${1:-}" = "--no-build" ] && BUILD_IT=0

BINS=(shardlab-run shardlab-worker shardlab-bench-collectives)
TESTS=(shardlab_cuda_device_test shardlab_nccl_test shardlab_gpu_transport_test shardlab_gpu_job_test
  shardlab_cuda_build_test shardlab_gpu_parity_test
  shardlab_gpu_transport_test_without_ready_wait shardlab_gpu_transport_test_without_end_wait)

say() { echo "gpu-bundle: $*"; }

if [ "$BUILD_IT" = 1 ]; then
  mkdir -p "$OUTDIR"
  say "configure $BUILD (RelWithDebInfo, CUDA arch $CUDA_ARCH, no app, no quiz)"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_BUILD_APP=OFF \
    -DSHARDLAB_BUILD_QUIZ=OFF -DSHARDLAB_WITH_CUDA=ON -DSHARDLAB_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" >"$BUILD.configure.log" 2>&1 ||
    { cat "$BUILD.configure.log"; exit 1; }
  grep -q "CUDA backend ON" "$BUILD.configure.log" ||
    { grep ShardLab "$BUILD.configure.log"; say "the CUDA backend is not configured: no bundle"; exit 1; }
  say "build ${BINS[*]} ${TESTS[*]}"
  cmake --build "$BUILD" -j "$JOBS" --target "${BINS[@]}" "${TESTS[@]}"
fi

rm -rf "$B" "$OUTDIR/shardlab-gpu.tar.xz"
mkdir -p "$B/bin" "$B/lib" "$B/ompi/bin" "$B/ompi/share"
for t in "${BINS[@]}" "${TESTS[@]}"; do
  [ -x "$BUILD/bin/$t" ] || { say "missing $BUILD/bin/$t (build it, or drop --no-build)"; exit 1; }
  cp "$BUILD/bin/$t" "$B/bin/"
  strip --strip-unneeded "$B/bin/$t"
done

# --- Open MPI: Debian's prefix, relocated -------------------------------------------
# Debian configured --prefix=/usr with libdir ${prefix}/lib/x86_64-linux-gnu/openmpi/lib,
# so under OPAL_PREFIX=$B/ompi the components are looked for in
# $B/ompi/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 and the help files in
# $B/ompi/share/openmpi. Components whose libraries a bare image lacks (UCX, libfabric,
# verbs, PSM, Slurm's PMI, Java) are left out (munge, which PMIx needs, is carried), so Open MPI does not warn at every
# start; shared memory (vader), TCP and self remain, which one node needs.
OMPI_LIBDIR=/usr/lib/x86_64-linux-gnu/openmpi/lib
PMIX_DIR=/usr/lib/x86_64-linux-gnu/pmix2
[ -d "$OMPI_LIBDIR/openmpi3" ] || { say "Debian's Open MPI (openmpi-bin, libopenmpi-dev) is not installed here"; exit 1; }
REL_LIB="$B/ompi/lib/x86_64-linux-gnu/openmpi/lib"
mkdir -p "$REL_LIB/openmpi3"
cp -L /usr/bin/orterun "$B/ompi/bin/orterun"
cp -L /usr/bin/orted "$B/ompi/bin/orted"
cp -L /usr/bin/ompi_info "$B/ompi/bin/ompi_info"
ln -s orterun "$B/ompi/bin/mpirun"
ln -s orterun "$B/ompi/bin/mpiexec"
cp -r /usr/share/openmpi "$B/ompi/share/openmpi"
BANNED='libuc[pstm]|libfabric|libibverbs|librdmacm|libpsm|libpmi\.so|libpmi2\.so|libjvm|libjawt|libcuda\.so|libnl-|libosm|libslurm'
kept=0 dropped=()
for c in "$OMPI_LIBDIR"/openmpi3/*.so; do
  # OpenSHMEM's components (liboshmem) are not MPI: the engine never uses them.
  case "$(basename "$c")" in mca_atomic_* | mca_memheap_* | mca_scoll_* | mca_spml_* | mca_sshmem_*)
    dropped+=("$(basename "$c" .so)"); continue ;;
  esac
  # (ldd's output first: with pipefail, `ldd | grep -q` fails when grep stops early.)
  deps=$(ldd "$c" 2>/dev/null || true)
  if grep -Eq "$BANNED|not found" <<<"$deps"; then
    dropped+=("$(basename "$c" .so)")
  else
    cp -L "$c" "$REL_LIB/openmpi3/"
    kept=$((kept + 1))
  fi
done
# The component helper libraries the kept components use (libmca_common_*).
for lib in "$OMPI_LIBDIR"/libmca_common_*.so; do
  deps=$(ldd "$lib" 2>/dev/null || true)
  grep -Eq "$BANNED|not found" <<<"$deps" && continue
  soname=$(objdump -p "$lib" | awk '/SONAME/{print $2}')
  cp -L "$lib" "$REL_LIB/${soname:-$(basename "$lib")}"
done
say "Open MPI: $kept MCA components kept; left out (OpenSHMEM, or needing libraries a bare image lacks): ${dropped[*]}"

# PMIx (Open MPI's runtime talks to it): relocated with PMIX_INSTALL_PREFIX.
mkdir -p "$B/pmix2/lib/pmix" "$B/pmix2/share"
cp -L "$PMIX_DIR"/lib/pmix/*.so "$B/pmix2/lib/pmix/" 2>/dev/null || true
cp -r "$PMIX_DIR/share/pmix" "$B/pmix2/share/pmix"
[ -f "$PMIX_DIR/share/pmix-mca-params.conf" ] && cp "$PMIX_DIR/share/pmix-mca-params.conf" "$B/pmix2/share/"

# --- every other library ldd names, except glibc's and CUDA's --------------------------
# glibc (libc, libm, ld-linux, ...) must come from the machine (this build needs
# glibc >= 2.36, MANIFEST says; the device's Ubuntu 24.04 has 2.39). CUDA's runtime, cuBLAS, NCCL and
# the driver come from the device (pip's nvidia-* packages): env.sh finds them.
SYSTEM='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libutil\.so|libresolv\.so|ld-linux|libcuda\.so|libcudart\.so|libcublas\.so|libcublasLt\.so|libnccl\.so|libnvidia|libnvToolsExt)'
copy_deps() { # copy_deps ELF...: the non-system libraries they need, into $B/lib
  local f line name path
  for f in "$@"; do
    while read -r line; do
      name=$(awk '{print $1}' <<<"$line")
      path=$(awk '$2 == "=>" {print $3}' <<<"$line")
      [[ "$name" =~ $SYSTEM ]] && continue
      [ -z "$path" ] || [ "$path" = "not" ] && continue
      [ -e "$B/lib/$name" ] || [ -e "$REL_LIB/$name" ] && continue
      cp -L "$path" "$B/lib/$name"
    done < <(ldd "$f" 2>/dev/null | grep "=>")
  done
}
copy_deps "$B"/bin/* "$B"/ompi/bin/orterun "$B"/ompi/bin/orted "$B"/ompi/bin/ompi_info "$REL_LIB"/openmpi3/*.so \
  "$REL_LIB"/libmca_common_*.so* "$B"/pmix2/lib/pmix/*.so
# Open MPI's own libraries go where OPAL_PREFIX expects them, the rest in lib/.
for l in "$B"/lib/libmpi.so* "$B"/lib/libopen-rte.so* "$B"/lib/libopen-pal.so*; do
  [ -e "$l" ] && mv "$l" "$REL_LIB/"
done
if [ -e "$B/lib/libpmix.so.2" ]; then mv "$B/lib/libpmix.so.2" "$B/pmix2/lib/"; fi
# libstdc++ and libgcc_s only as a fallback (env.sh uses them when the machine has no
# libstdc++ with the newest GLIBCXX version the binaries need, which NEEDS names): on
# LD_LIBRARY_PATH first, Debian 12's copy would hide the GPU machine's newer one from
# python3, torch and compute-sanitizer, which may need more than it has.
mkdir -p "$B/lib/fallback"
for l in libstdc++.so.6 libgcc_s.so.1; do
  if [ -e "$B/lib/$l" ]; then mv "$B/lib/$l" "$B/lib/fallback/"; fi
done
objdump -T "$B"/bin/* "$B"/lib/*.so* "$REL_LIB"/*.so* "$REL_LIB"/openmpi3/*.so 2>/dev/null |
  grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -1 >"$B/lib/fallback/NEEDS"
strip --strip-unneeded "$B"/lib/*.so* "$B"/lib/fallback/*.so* "$REL_LIB"/*.so* "$REL_LIB"/openmpi3/*.so "$B"/pmix2/lib/*.so* \
  "$B"/pmix2/lib/pmix/*.so 2>/dev/null || true

# --- env.sh ---------------------------------------------------------------------------
cp "$ROOT/scripts/gpu-bundle-env.sh" "$B/env.sh"

{
  echo "ShardLab GPU bundle"
  echo "commit: $(git -C "$ROOT" rev-parse HEAD)$(git -C "$ROOT" diff --quiet HEAD -- . ':!gpu-bundle' 2>/dev/null || echo ' (+ uncommitted changes)')"
  echo "built: $(date -u +%FT%TZ) on $(. /etc/os-release && echo "$PRETTY_NAME"), $(nvcc --version 2>/dev/null | tail -1 || echo 'nvcc ?')"
  echo "cuda arch: $CUDA_ARCH; open mpi: $(ompi_info --version 2>/dev/null | head -1)"
  echo "needs from the machine: glibc >= $(objdump -T "$B"/bin/* "$B"/lib/*.so* "$B"/lib/fallback/*.so* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 | sed 's/GLIBC_//'), and for GPU jobs the CUDA driver, libcudart.so.13, libcublas.so.13, libnccl.so.2"
  echo
  (cd "$B" && find . -type f -printf '%s\t%p\n' | sort -k2)
} >"$B/MANIFEST"

XZ_OPT="${XZ_OPT:--6 -T0}" tar -C "$OUTDIR" -cJf "$OUTDIR/shardlab-gpu.tar.xz" shardlab-gpu
raw=$(du -sm "$B" | cut -f1)
packed=$(stat -c %s "$OUTDIR/shardlab-gpu.tar.xz")
say "bundle: $B ($raw MiB unpacked), $OUTDIR/shardlab-gpu.tar.xz ($((packed / 1024 / 1024)) MiB, $packed bytes)"
if [ "$packed" -gt $((LIMIT_MIB * 1024 * 1024)) ]; then
  say "the packed bundle is over ${LIMIT_MIB} MiB: the device call cannot carry it"
  exit 1
fi
