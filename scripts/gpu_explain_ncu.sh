#!/usr/bin/env bash
# Explain's sectors per request against Nsight Compute's (docs/insight.md,
# "Explain against Nsight Compute"), for every shipped kernel, at one size:
#   1. `cudaviz bench kernel --explain` (the CPU emulator's recording; it
#      picks explain's n, at most 65,536 threads) -> explain_n, block, entry
#      and explain's sectors and requests per line;
#   2. ncu on `bench kernel --guard off` at that n and block: global loads'
#      and stores' l1tex__t_sectors / l1tex__t_requests, kernel-wide (the
#      first launch of the kernel: bench's warm-up);
#   3. ncu's source view per CUDA line (SourceCounters, the source imported
#      from a copy of the file under the name NVRTC gave it).
# Then one table: explain against ncu, loads and stores, kernel-wide and per
# line, PASS when within 10% (both without a request also passes).
# Every step is bounded by `timeout -k`; logs, reports and the table go to
# $OUT (explain_ncu.log: the summary; explain_ncu_table.txt; ncu_*.csv;
# src_*.csv; explain_*.json).
#
# On the GPU machine, from the repository root (binaries as for
# scripts/gpu_usercode.sh: cudaviz and cudaviz-explain side by side in $B):
#   bash scripts/gpu_explain_ncu.sh            # every assets/kernels/*.cu
#   bash scripts/gpu_explain_ncu.sh assets/kernels/fountain_kernel.cu ...
#   SOURCE_VIEW="reverse_shared fountain_kernel" bash scripts/gpu_explain_ncu.sh   # per line for those only
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=$(cd "${B:-.devrun}" && pwd)
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
log=$OUT/explain_ncu.log
say() { echo "== $*" | tee -a "$log"; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$log"
"$NCU" --version 2>&1 | tail -n 1 | tee -a "$log"

files=("$@")
[ ${#files[@]} -eq 0 ] && files=(assets/kernels/*.cu)
for f in "${files[@]}"; do
  name=$(basename "$f" .cu)
  # A private copy under its own name: NVRTC names the file by it, ncu's
  # source view opens it from the directory it runs in.
  work=$OUT/work_$name; rm -rf "$work"; mkdir -p "$work"; cp "$f" "$work/$name.cu"
  say "$name: explain"
  (cd "$work" && timeout -k 10 300 "$B/cudaviz" bench kernel --source "$name.cu" --guard off --explain --reps 1 \
     > "$OUT/explain_$name.json" 2> "$OUT/explain_$name.err")
  echo "explain exit $?" | tee -a "$log"
  read -r n block entry < <(python3 - "$OUT/explain_$name.json" <<'PY'
import json, sys
j = {}
for line in open(sys.argv[1]):
    if line.startswith('{'): j = json.loads(line)
b = j.get('block') or [0, 0, 0]
print(j.get('explain_n', 0), ','.join(str(x) for x in b), j.get('entry', ''))
PY
)
  if [ -z "$entry" ] || [ "$n" = "0" ]; then echo "$name: no explain_n or entry (see explain_$name.err)" | tee -a "$log"; continue; fi
  say "$name: ncu kernel-wide (entry $entry, n $n, block $block)"
  (cd "$work" && timeout -k 10 600 "$NCU" --target-processes all --csv --metrics "$METRICS" -k "regex:^${entry}\$" -c 1 \
     "$B/cudaviz" bench kernel --source "$name.cu" --guard off --n "$n" --block "$block" --reps 1 \
     > "$OUT/ncu_$name.csv" 2> "$OUT/ncu_$name.err")
  echo "ncu exit $?" | tee -a "$log"
  # SOURCE_VIEW="name ...": the per-line view for those kernels only (about 30 s each).
  if [ -n "${SOURCE_VIEW:-}" ] && [[ " $SOURCE_VIEW " != *" $name "* ]]; then continue; fi
  say "$name: ncu source view"
  (cd "$work" && timeout -k 10 600 "$NCU" --target-processes all --import-source yes --section SourceCounters \
     -k "regex:^${entry}\$" -c 1 -f -o "$OUT/rep_$name" \
     "$B/cudaviz" bench kernel --source "$name.cu" --guard off --n "$n" --block "$block" --reps 1 \
     > "$OUT/rep_$name.log" 2>&1)
  echo "ncu report exit $?" | tee -a "$log"
  (cd "$work" && timeout -k 10 300 "$NCU" --import "$OUT/rep_$name.ncu-rep" --page source --csv --print-source cuda,sass \
     > "$OUT/src_$name.csv" 2> "$OUT/src_$name.err")
  echo "ncu source exit $?" | tee -a "$log"
done

say "table (explain vs ncu; PASS within 10%)"
python3 - "$OUT" "${files[@]}" <<'PY' 2>&1 | tee "$OUT/explain_ncu_table.txt" | tee -a "$log"
import csv, io, json, os, sys
out, files = sys.argv[1], sys.argv[2:]

def num(s):
    try: return float(str(s).replace(',', ''))
    except ValueError: return None

def ratio(s, r):
    return s / r if r else None

def verdict(e, g):
    if e is None and g is None: return 'PASS'
    if e is None or g is None: return 'FAIL'
    return 'PASS' if abs(e - g) <= 0.10 * g else 'FAIL'

def fmt(x): return '-' if x is None else f'{x:.3f}'

def csv_rows(path):
    try: text = open(path, errors='replace').read()
    except OSError: return []
    lines = [l for l in text.splitlines() if l.startswith('"')]
    return list(csv.reader(io.StringIO('\n'.join(lines))))

fails = 0
for f in files:
    name = os.path.basename(f)[:-3]
    x = {}
    try:
        for line in open(f'{out}/explain_{name}.json'):
            if line.startswith('{'): x = json.loads(line)
    except OSError: pass
    lines = x.get('sectors_per_request') or []
    def explain_pair(kind, line=None):
        s = sum(l['sectors'] for l in lines if l['kind'] in kind and (line is None or l['line'] == line))
        r = sum(l['requests'] for l in lines if l['kind'] in kind and (line is None or l['line'] == line))
        return ratio(s, r)
    metric = {}
    rows = csv_rows(f'{out}/ncu_{name}.csv')
    if rows:
        h = rows[0]
        for r in rows[1:]:
            d = dict(zip(h, r))
            metric[d.get('Metric Name')] = num(d.get('Metric Value'))
    g_ld = ratio(metric.get('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum') or 0,
                 metric.get('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum') or 0)
    g_st = ratio(metric.get('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum') or 0,
                 metric.get('l1tex__t_requests_pipe_lsu_mem_global_op_st.sum') or 0)
    e_ld, e_st = explain_pair(('read',)), explain_pair(('write',))
    v_ld, v_st = verdict(e_ld, g_ld), verdict(e_st, g_st)
    fails += (v_ld != 'PASS') + (v_st != 'PASS')
    print(f"{name:20s} n={x.get('explain_n')} block={x.get('block')} | ld explain {fmt(e_ld)} ncu {fmt(g_ld)} {v_ld}"
          f" | st explain {fmt(e_st)} ncu {fmt(g_st)} {v_st}")
    # Per CUDA line: ncu's source view (cuda,sass) lists, in a block per
    # source file, each line ("Line No" set) and then its SASS instructions.
    # A line's requests are its global memory instructions' executions (one a
    # warp: "Instructions Executed"), its sectors their "L2 Theoretical Sectors
    # Global" (the line's own "L1 Tag Requests Global" counts 128-byte tags: 4
    # for one float4 request). Loads, stores and atomics together, as explain's.
    try: src = list(csv.reader(open(f'{out}/src_{name}.csv', errors='replace')))
    except OSError: src = []
    h, in_file, line, per_line = None, False, None, {}
    for r in src:
        if not r: continue
        if r[0] == 'File Path':
            in_file = os.path.basename(r[1]) == name + '.cu'
            continue
        if r[0] == 'Line No':
            h = r
            continue
        if not in_file or not h: continue
        if r[0]:
            line = num(r[0])
            continue
        col = lambda c: r[h.index(c)] if c in h and h.index(c) < len(r) else ''
        if line is None or col('Address Space') != 'Global': continue
        q, s = per_line.get(int(line), (0.0, 0.0))
        per_line[int(line)] = (q + (num(col('Instructions Executed')) or 0), s + (num(col('L2 Theoretical Sectors Global')) or 0))
    for ln, (q, s) in sorted(per_line.items()):
        if not q: continue
        g = ratio(s, q)
        e = explain_pair(('read', 'write', 'atomic'), ln)
        v = verdict(e, g)
        fails += v != 'PASS'
        print(f"{'':20s}   line {ln:3d}: explain {fmt(e)} ncu {fmt(g)} ({int(s)} / {int(q)}) {v}")
    if not per_line:
        print(f"{'':20s}   per line: no global access of {name}.cu in src_{name}.csv")
print(f"failures: {fails}")
PY
