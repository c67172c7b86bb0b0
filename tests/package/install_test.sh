#!/usr/bin/env bash
# Usage: install_test.sh BUILD_DIR SOURCE_DIR PNG_CHECK
# Builds the .deb of BUILD_DIR with cpack, unpacks it into a scratch root
# (dpkg-deb -x) and checks the package: its control fields (either GLFW package,
# no libcuda), its files (desktop entry preferring the discrete GPU, icon,
# metainfo, copyright, changelog), the binary's needs (driver only: no CUDA
# runtime, cuRAND or toolkit path), and the installed binary itself: a scripted
# run with a screenshot and `cudaviz doctor`, from a folder outside both trees,
# traced with strace: no file in SOURCE_DIR or BUILD_DIR may be touched.
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) png_check=$3
xvfb="$src/tests/window/with_xvfb.sh"
command -v strace >/dev/null || { echo "FAIL: strace not installed (./scripts/deps.sh --test)"; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cudaviz-package.XXXXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. The package, from this tree as built (cpack's install step finds it up to date).
cpack -G DEB -B "$scratch/out" --config "$build/CPackConfig.cmake" >"$scratch/cpack.log" 2>&1 ||
  { cat "$scratch/cpack.log"; fail "cpack failed"; }
deb=$(ls "$scratch"/out/cudaviz_*.deb)
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
dpkg-deb -c "$deb" | awk '{print $6}'

# 2. Control fields.
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
grep -qF 'libglfw3 (>= 3.3) | libglfw3-wayland (>= 3.3)' <<<"$depends" || fail "GLFW is not an alternative"
grep -qiE 'libcuda|libnvidia|cuda-' <<<"$depends" && fail "the package depends on the driver or toolkit"

# 3. Files.
root="$scratch/root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/cudaviz usr/share/cudaviz/presets/fountain.json \
  usr/share/applications/org.cudaviz.cudaviz.desktop \
  usr/share/icons/hicolor/scalable/apps/cudaviz.svg \
  usr/share/metainfo/org.cudaviz.cudaviz.metainfo.xml \
  usr/share/doc/cudaviz/copyright usr/share/doc/cudaviz/changelog.Debian.gz \
  usr/share/man/man1/cudaviz.1.gz; do
  [ -e "$root/$f" ] || fail "the package lacks /$f"
done
grep -qx 'PrefersNonDefaultGPU=true' "$root/usr/share/applications/org.cudaviz.cudaviz.desktop" ||
  fail "the desktop entry does not prefer the discrete GPU"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/org.cudaviz.cudaviz.desktop" || fail "desktop entry invalid"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/org.cudaviz.cudaviz.metainfo.xml" ||
    fail "AppStream metainfo invalid"
fi
head -1 "$root/usr/share/doc/cudaviz/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  fail "copyright is not machine-readable (DEP-5)"
# The licence: MIT for the project, NVIDIA's terms named for the NVRTC libraries it carries.
grep -Pzq 'Files: \*\nCopyright: [^\n]*cudaviz authors\nLicense: Expat\n' "$root/usr/share/doc/cudaviz/copyright" ||
  fail "copyright: Files: * is not MIT (Expat) by the cudaviz authors"
grep -q '^License: NVIDIA-CUDA-EULA' "$root/usr/share/doc/cudaviz/copyright" ||
  fail "copyright: the NVRTC libraries' terms are not named"
grep -q '<project_license>MIT' "$root/usr/share/metainfo/org.cudaviz.cudaviz.metainfo.xml" ||
  fail "metainfo: project_license is not MIT"
zcat "$root/usr/share/doc/cudaviz/changelog.Debian.gz" | head -1 |
  grep -qF "cudaviz ($(dpkg-deb -f "$deb" Version))" || fail "changelog version differs from the package's"

# 4. What the binary needs: the driver only (the static runtime loads libcuda at run time).
needed=$(readelf -d "$root/usr/bin/cudaviz" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "NEEDED: $needed"
grep -qE 'libcuda|libcudart|libcurand' <<<"$needed" && fail "the binary links a CUDA library dynamically"
# The kernel editor: the runner and NVRTC (dlopened through the RUNPATH) ship in lib/cudaviz.
[ -x "$root/usr/lib/cudaviz/cudaviz-runner" ] || fail "the package lacks /usr/lib/cudaviz/cudaviz-runner"
readelf -d "$root/usr/bin/cudaviz" | grep -qF '[$ORIGIN/../lib/cudaviz]' ||
  fail "the binary has no RUNPATH \$ORIGIN/../lib/cudaviz (where NVRTC ships)"
for lib in libnvrtc.so.13 libnvrtc-builtins.so.13.0; do
  compgen -G "$root/usr/lib/cudaviz/$lib*" >/dev/null || fail "the package lacks /usr/lib/cudaviz/$lib"
done
if readelf -d "$root/usr/bin/cudaviz" | grep -E 'R(UN)?PATH' | grep -q -e /usr/local/cuda -e "$build"; then
  fail "the installed binary keeps a build-time RPATH"
fi

# 5. The installed binary, from a folder of its own, traced: nothing of either tree is opened.
cd "$scratch"
unset CUDAVIZ_ASSETS LD_LIBRARY_PATH
# A driver-only machine's PATH: the toolkit's bin/ (on this build machine's PATH) is
# not there, and the app's PATH lookups (ffmpeg for clips) must not count as using it.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
trace() {  # trace LOG CMD...: file system calls of the app (not of Xvfb) into LOG
  local log=$1
  shift
  "$xvfb" -s "-screen 0 1280x800x24" strace -f -qq -e trace=%file -o "$log" "$@"
}
set +e
trace run.trace "$root/usr/bin/cudaviz" --backend cpu --frames 30 --screenshot "$scratch/shot.png" \
  --size 1280x800 >run.out 2>run.err
rc=$?
set -e
tail -c 400 run.out
[ $rc -eq 0 ] || { cat run.err; fail "the installed cudaviz exited $rc"; }
"$png_check" "$scratch/shot.png" fountain || fail "the installed app's screenshot lacks the fountain"
set +e
trace doctor.trace "$root/usr/bin/cudaviz" doctor >doctor.out 2>&1
rc=$?
set -e
cat doctor.out
[ $rc -eq 0 ] || fail "the installed cudaviz doctor exited $rc"
grep -qF "[ok] data: shipped presets in $root/usr/share/cudaviz/presets" doctor.out ||
  fail "doctor did not find the presets in the installed share/cudaviz"
# A student's kernel with a compile error, compiled by the packaged NVRTC: exit 2, the line named.
printf '%s\n' '// template: fountain_kernel' 'extern "C" __global__ void fountain_step() { undeclared = 1; }' > bad.cu
set +e
# (LIBRARY_PATH unset: the host compiler would search a toolkit's stubs named there,
# which a machine with only the driver does not have.)
trace kernel.trace env -u LIBRARY_PATH "$root/usr/bin/cudaviz" bench kernel --source "$scratch/bad.cu" >kernel.out 2>kernel.err
rc=$?
set -e
cat kernel.err
[ $rc -eq 2 ] || fail "bench kernel on a compile error exited $rc, not 2"
grep -q 'bad.cu:2:.*error' kernel.err || fail "the compile error does not name bad.cu line 2"
# Without a GPU a whole kernel compiles with the host compiler (the CPU emulator,
# docs/emulator.md), so NVRTC loads only where a GPU is: wherever it loads, it must
# be the package's copy, and that copy must load on its own.
if grep -qE "libnvrtc\.so[^\"]*\", O_RDONLY[^=]*= [0-9]" kernel.trace run.trace doctor.trace; then
  ! grep -hE "libnvrtc\.so[^\"]*\", O_RDONLY[^=]*= [0-9]" kernel.trace run.trace doctor.trace | grep -vq "lib/cudaviz/" ||
    fail "NVRTC was loaded from outside the package"
fi
/usr/bin/python3 -c "import ctypes, sys; ctypes.CDLL(sys.argv[1] + '/libnvrtc-builtins.so.13.0', mode=ctypes.RTLD_GLOBAL); ctypes.CDLL(sys.argv[1] + '/libnvrtc.so.13')" \
  "$root/usr/lib/cudaviz" || fail "the packaged NVRTC does not load"
for t in run.trace doctor.trace kernel.trace; do
  if grep -F -e "\"$src/" -e "\"$src\"" -e "\"$build/" "$t" >"$t.hits"; then
    head -5 "$t.hits" >&2
    fail "the installed app touched the source or build tree ($t: $(wc -l <"$t.hits") calls)"
  fi
  # A machine with the driver only has no toolkit: nothing may be looked up there.
  if grep -F -e '"/usr/local/cuda' "$t" >"$t.hits"; then
    head -5 "$t.hits" >&2
    fail "the installed app looked in the CUDA toolkit ($t: $(wc -l <"$t.hits") calls)"
  fi
done
# The trace must show the app's own lookup, else strace watched the wrong process.
grep -qF "\"$root/usr/share/cudaviz/presets\"" doctor.trace ||
  fail "the doctor trace does not show the presets lookup (strace did not trace the app?)"
echo "traced: $(wc -l <run.trace) + $(wc -l <doctor.trace) file system calls, none in $src"

# 6. lintian, where installed: no errors (warnings are listed in docs/packaging.md).
if command -v lintian >/dev/null; then
  lintian --tag-display-limit 0 "$deb" >lintian.out 2>&1 || true
  cat lintian.out
  grep -q '^E:' lintian.out && fail "lintian reports errors"
else
  echo "lintian not installed: not run (apt-get install lintian)"
fi
echo PASS
