# Sourced by the GPU scripts, from the repository root on the lent machine
# (docs/gpu.md): $OUT for logs, the carried binaries in $B (.devrun, unpacked
# from .xz once), the GL kit's display (Xvfb + NVIDIA GLX; its output goes to
# $OUT/gl-env.log), the CUDA libraries and the shipped data.
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=$PWD/.devrun
for f in "$B"/*.xz; do [ -e "$f" ] && unxz -f "$f"; done
chmod +x "$B"/*
# shellcheck disable=SC1091  # carried beside the tree, not in it
source .gl/gl-env.sh >> "$OUT/gl-env.log" 2>&1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} CUDAVIZ_ASSETS=$PWD/assets
