#!/usr/bin/env bash
# package-test.sh BUILD_DIR SOURCE_DIR CPACK VERSION (tests/package/CMakeLists.txt)
#
# 1. Makes shardlab_<VERSION>_amd64.deb with BUILD_DIR's CPackConfig.cmake. cpack's own
#    install step would first run the `preinstall` target (ninja in BUILD_DIR, which a
#    test must not do while others build there), so the tree is laid out by
#    `cmake --install --strip` into a scratch folder and cpack packs that folder.
# 2. Checks its Depends (dpkg-deb -I) and that lintian reports no error (scripts/setup.sh
#    installs lintian; a machine without it fails here rather than skip the check).
# 3. Unpacks it into a scratch root (dpkg -x) and, from a folder outside the source
#    tree, with SHARDLAB_* unset and HOME in the scratch folder, runs
#      ROOT/usr/bin/shardlab-run --ranks 2 --steps 2            (the default job, tiny)
#      ROOT/usr/bin/shardlab --lesson ddp-replicas --screenshot  (offscreen)
#    in a mount namespace where SOURCE_DIR and BUILD_DIR are empty (unshare -m), under
#    strace where it is installed: any file the installed programs look for under
#    SOURCE_DIR or BUILD_DIR fails the test, by name.
set -euo pipefail
build=$(realpath "$1"); src=$(realpath "$2"); cpack=$3; version=$4
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (Debian's dpkg-dev)"
done

scratch=$(mktemp -d "${SHARDLAB_PACKAGE_TEST_TMP:-/tmp}/shardlab-package-test.XXXXXX")
scratch=$(realpath "$scratch")
keep=${SHARDLAB_PACKAGE_TEST_KEEP:-0}
trap '[ "$keep" = 1 ] && echo "kept $scratch" || rm -rf "$scratch"' EXIT
case "$scratch/" in "$src/"*|"$build/"*) fail "the scratch folder $scratch is inside the source or build folder";; esac

t=$SECONDS
echo "== install and package"
DESTDIR="$scratch/stage" cmake --install "$build" --prefix /usr --strip >"$scratch/install.log" 2>&1 \
  || { cat "$scratch/install.log"; fail "cmake --install"; }
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/out" \
  -D CPACK_INSTALL_CMAKE_PROJECTS= -D "CPACK_INSTALLED_DIRECTORIES=$scratch/stage;." >"$scratch/cpack.log" 2>&1 \
  || { cat "$scratch/cpack.log"; fail "cpack"; }
deb="$scratch/out/shardlab_${version}_amd64.deb"
[ -f "$deb" ] || { ls "$scratch/out"; fail "cpack made no $(basename "$deb")"; }
echo "$(basename "$deb"): $(du -h "$deb" | cut -f1), made in $((SECONDS - t)) s"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for dep in openmpi-bin libopenmpi3 libqt6widgets6 libqcustomplot libc6 libstdc++6; do
  [[ ",$depends" == *[\ ,]$dep* ]] || fail "Depends lacks $dep"
done
[[ "$depends" == *openblas* || "$depends" == *libblas* ]] || fail "Depends lacks OpenBLAS (libopenblas0 or libblas3)"

command -v lintian >/dev/null || fail "lintian is not installed (scripts/setup.sh installs it; apt-get install lintian)"
t=$SECONDS
# --tag-display-limit 0: every tag, however often it occurs.
lintian --tag-display-limit 0 "$deb" >"$scratch/lintian.log" 2>&1 || true
echo "lintian ($((SECONDS - t)) s): $(grep -c '^E:' "$scratch/lintian.log" || true) errors, $(grep -c '^W:' "$scratch/lintian.log" || true) warnings"
if grep -q '^E:' "$scratch/lintian.log"; then cat "$scratch/lintian.log"; fail "lintian reports errors"; fi

root="$scratch/root"
dpkg -x "$deb" "$root"
for f in usr/bin/shardlab-run usr/bin/shardlab-worker usr/bin/shardlab-quiz usr/bin/shardlab-replay \
         usr/share/shardlab/assets/quiz usr/share/shardlab/assets/lessons usr/share/shardlab/assets/labs \
         usr/share/shardlab/assets/specs usr/share/doc/shardlab/copyright; do
  [ -e "$root/$f" ] || fail "the package has no /$f"
done
app=0
if [ -e "$root/usr/bin/shardlab" ]; then
  app=1
  for f in usr/share/applications/shardlab.desktop usr/share/icons/hicolor/scalable/apps/shardlab.svg; do
    [ -e "$root/$f" ] || fail "the package has no /$f"
  done
fi

# The source and build folders out of reach: empty in a private mount namespace.
hide=()
if unshare -m --propagation private true 2>/dev/null; then
  hide=(unshare -m --propagation private)
elif unshare -rm --propagation private true 2>/dev/null; then
  hide=(unshare -rm --propagation private)
fi
watch=()
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
  watch=(strace -f -qq -e trace=%file,execve -o)
fi
[ ${#hide[@]} -gt 0 ] || [ ${#watch[@]} -gt 0 ] || skip "neither unshare -m nor strace works here: the source tree cannot be kept out of reach"
echo "source tree: $([ ${#hide[@]} -gt 0 ] && echo "hidden (${hide[*]})" || echo "not hidden (no mount namespace)")," \
     "$([ ${#watch[@]} -gt 0 ] && echo "file calls watched by strace" || echo "not watched (no strace)")"

mkdir -p "$scratch/home" "$scratch/tmp" "$scratch/work"
# run NAME COMMAND...: COMMAND in the scratch work folder with a clean environment,
# the source and build folders hidden, its file calls in $scratch/NAME.strace.
run() {
  local name=$1; shift
  local traced=("$@")
  [ ${#watch[@]} -gt 0 ] && traced=("${watch[@]}" "$scratch/$name.strace" "$@")
  local mounts="mount -t tmpfs -o size=64k,mode=0555 shardlab-hidden '$src'"
  case "$build/" in "$src/"*) ;; *) mounts+=" && mount -t tmpfs -o size=64k,mode=0555 shardlab-hidden '$build'";; esac
  local script="cd '$scratch/work' && exec \"\$@\""
  [ ${#hide[@]} -gt 0 ] && script="$mounts && $script"
  env -i PATH=/usr/bin:/bin HOME="$scratch/home" TMPDIR="$scratch/tmp" XDG_CACHE_HOME="$scratch/home/.cache" \
      XDG_CONFIG_HOME="$scratch/home/.config" XDG_DATA_HOME="$scratch/home/.local/share" LANG=C.UTF-8 \
      QT_QPA_PLATFORM=offscreen \
      ${hide[@]+"${hide[@]}"} bash -c "$script" run "${traced[@]}"
}

echo "== the installed shardlab-run: the default job, 2 ranks, 2 steps"
t=$SECONDS
run job "$root/usr/bin/shardlab-run" --ranks 2 --steps 2 --summary-json "$scratch/work/summary.json" \
  >"$scratch/job.log" 2>&1 || { cat "$scratch/job.log"; fail "the installed shardlab-run failed"; }
grep -q '"steps_completed": 2' "$scratch/work/summary.json" || { cat "$scratch/job.log"; fail "the job's summary has not 2 steps completed"; }
echo "ran in $((SECONDS - t)) s"

if [ "$app" = 1 ]; then
  echo "== the installed shardlab: --lesson ddp-replicas --screenshot (offscreen)"
  t=$SECONDS
  run app "$root/usr/bin/shardlab" --lesson ddp-replicas --screenshot "$scratch/work/x.png" \
    >"$scratch/app.log" 2>&1 || { cat "$scratch/app.log"; fail "the installed shardlab failed"; }
  [ -s "$scratch/work/x.png" ] || { cat "$scratch/app.log"; fail "no screenshot"; }
  echo "ran in $((SECONDS - t)) s"
fi

if [ ${#watch[@]} -gt 0 ]; then
  names=(job); [ "$app" = 1 ] && names+=(app)
  for name in "${names[@]}"; do
    log="$scratch/$name.strace"
    if grep -E "\"($src|$build)(/|\")" "$log" >"$scratch/$name.outside"; then
      head -20 "$scratch/$name.outside"
      fail "$name: the installed programs looked for files in the source or build folder (above)"
    fi
    grep -q "execve(\"$root/usr/bin/shardlab-worker\"" "$log" || fail "$name: shardlab-worker was not run from $root/usr/bin"
    grep -q "openat(.*\"$root/usr/share/shardlab/assets/" "$log" || [ "$name" = job ] \
      || fail "$name: the assets were not read from $root/usr/share/shardlab/assets"
  done
  [ "$app" = 0 ] || grep -q "execve(\"$root/usr/bin/shardlab-run\"" "$scratch/app.strace" \
    || fail "app: shardlab-run was not run from $root/usr/bin"
  echo "no file looked for under $src or $build; the worker, launcher and assets came from $root"
fi
echo "package test passed"
