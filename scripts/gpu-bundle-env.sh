# The GPU bundle's env.sh (scripts/gpu-bundle.sh copies this file into the bundle).
# Source me: . shardlab-gpu/env.sh   (bash or sh)
# Sets up the carried Open MPI, OpenBLAS and friends, and finds CUDA's libraries in
# the machine's pip packages (or /usr/local/cuda). SHARDLAB_BUNDLE is this folder.
# SHARDLAB_SYSTEM_LD_LIBRARY_PATH keeps LD_LIBRARY_PATH as it was before: programs
# that are not the bundle's (python3 and torch) should run with that one.
SHARDLAB_BUNDLE="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
export SHARDLAB_BUNDLE
export SHARDLAB_SYSTEM_LD_LIBRARY_PATH="${SHARDLAB_SYSTEM_LD_LIBRARY_PATH-${LD_LIBRARY_PATH:-}}"
export PATH="$SHARDLAB_BUNDLE/bin:$PATH"
_shardlab_ld="$SHARDLAB_BUNDLE/lib"
# Open MPI refuses root without these (the device runs commands as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The carried Open MPI, when the bundle has one (a bundle without ompi/ uses the
# machine's own, as scripts/gpu-check-test does).
if [ -d "$SHARDLAB_BUNDLE/ompi" ]; then
  export OPAL_PREFIX="$SHARDLAB_BUNDLE/ompi"
  export PMIX_INSTALL_PREFIX="$SHARDLAB_BUNDLE/pmix2"
  export PATH="$OPAL_PREFIX/bin:$PATH"
  # One node, no ssh: the "isolated" launcher starts the ranks locally (the default
  # rsh launcher gives up when no ssh/rsh is installed, even for local ranks).
  export OMPI_MCA_plm="${OMPI_MCA_plm:-isolated}"
  # PMIx's plugins (its zlib compression) from the bundle: PMIX_INSTALL_PREFIX does
  # not move its component path.
  export PMIX_MCA_mca_base_component_path="$PMIX_INSTALL_PREFIX/lib/pmix"
  _shardlab_ld="$_shardlab_ld:$OPAL_PREFIX/lib/x86_64-linux-gnu/openmpi/lib:$PMIX_INSTALL_PREFIX/lib"
fi
# One node: shared memory and self (no network interfaces to probe).
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}"
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
# libstdc++ and libgcc_s are carried in lib/fallback and used only when this machine
# has no libstdc++ new enough for the binaries (lib/fallback/NEEDS names the version):
# on LD_LIBRARY_PATH they would hide a newer system copy from every later program.
if [ -f "$SHARDLAB_BUNDLE/lib/fallback/NEEDS" ]; then
  _shardlab_needs="$(cat "$SHARDLAB_BUNDLE/lib/fallback/NEEDS")"
  _shardlab_stdcxx="$({ /sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null; } |
    awk '/libstdc\+\+\.so\.6 .*x86-64/ {print $NF; exit}')"
  if [ -z "$_shardlab_stdcxx" ] || ! grep -qa "$_shardlab_needs" "$_shardlab_stdcxx" 2>/dev/null; then
    _shardlab_ld="$_shardlab_ld:$SHARDLAB_BUNDLE/lib/fallback"
  fi
fi
# SHARDLAB_CUDA_LIBS: folders with the CUDA libraries, when not from pip (scripts/check-bundle-bare).
[ -n "${SHARDLAB_CUDA_LIBS:-}" ] && _shardlab_ld="$_shardlab_ld:$SHARDLAB_CUDA_LIBS"
# CUDA: the pip packages' lib folders that hold cuBLAS, the CUDA runtime and NCCL.
_shardlab_py="${SHARDLAB_PYTHON:-$(command -v python3 || true)}"
if [ -n "$_shardlab_py" ]; then
  _shardlab_cuda="$("$_shardlab_py" - 2>/dev/null <<'PY'
import glob, os, sys
dirs = []
for base in sys.path:
    root = os.path.join(base, "nvidia")
    if not os.path.isdir(root):
        continue
    for pat in ("libcublas.so.*", "libcublasLt.so.*", "libcudart.so.*", "libnccl.so.*", "libnvToolsExt.so.*"):
        for f in glob.glob(os.path.join(root, "**", pat), recursive=True):
            d = os.path.dirname(f)
            if d not in dirs:
                dirs.append(d)
print(":".join(dirs))
PY
)"
  [ -n "$_shardlab_cuda" ] && _shardlab_ld="$_shardlab_ld:$_shardlab_cuda"
  # '%s\n': `read` drops a last line without a newline, and nvidia/nccl/lib may be last.
  NCCL_HOME="$(printf '%s\n' "$_shardlab_cuda" | tr ':' '\n' | while read -r d; do [ -e "$d/libnccl.so.2" ] && dirname "$d" && break; done)"
  [ -n "$NCCL_HOME" ] && export NCCL_HOME
fi
[ -d /usr/local/cuda/lib64 ] && _shardlab_ld="$_shardlab_ld:/usr/local/cuda/lib64"
export LD_LIBRARY_PATH="$_shardlab_ld${SHARDLAB_SYSTEM_LD_LIBRARY_PATH:+:$SHARDLAB_SYSTEM_LD_LIBRARY_PATH}"
unset _shardlab_ld _shardlab_py _shardlab_cuda _shardlab_needs _shardlab_stdcxx
