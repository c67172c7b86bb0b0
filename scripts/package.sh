#!/usr/bin/env bash
# Builds the Debian package for a class's machines: the portable build (SASS for
# every CUDA 13 GPU plus compute_75 PTX, compressed fatbins, the CUDA runtime
# linked statically: the target machine needs the NVIDIA driver, no toolkit),
# packaged with cpack, then checked with lintian where it is installed.
#   ./scripts/package.sh            -> build/portable/cudaviz_<version>_<arch>.deb
# Extra arguments go to the configure step (e.g. -DCUDAVIZ_PACKAGE_NVRTC=OFF).
# docs/packaging.md says what the package holds and how it is tested.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake --preset portable -DCUDAVIZ_BUILD_TESTS=OFF "$@"
cmake --build --preset portable -j "$(nproc)" --target cudaviz cudaviz-runner
(cd build/portable && umask 022 && cpack -G DEB)
deb=$(ls -t build/portable/cudaviz_*.deb | head -1)
echo "package: $deb ($(du -h "$deb" | cut -f1))"
if command -v lintian >/dev/null; then
  lintian --tag-display-limit 0 "$deb" || { echo "lintian reports errors" >&2; exit 1; }
else
  echo "lintian not installed: not checked (apt-get install lintian)"
fi
echo "install: sudo apt install ./$deb"
