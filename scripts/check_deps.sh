#!/usr/bin/env bash
# The one direction of dependency (docs/architecture.md), checked from the
# #include lines alone (no build): a file may include its own folder, any
# folder of a lower layer, and kernels/; never a peer or a higher layer.
# kernels/ includes nothing of app/. Exit 1 with one line per violation.
#
# Usage: scripts/check_deps.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# Layers of app/, lowest first. Root files count as the folder named like them
# (cli.h/cli.cpp -> cli, main.cpp -> main). A new folder must be placed here.
# Nested parts (usercode/<part>) sit at their parent's layer, ordered among
# themselves by `part` below; a part is a peer of every other folder of that layer.
declare -A layer=(
  [config]=0 [io]=0 [process]=0 [worker]=0 [widgets]=0 [registry]=0
  [gl]=1
  [timing]=2 [record]=2
  [cli]=3 [render]=3 [usercode]=3
  [bench]=4 [system]=4
  [scenes]=5 [labs]=5
  [tuning]=6
  [ui]=7
  [presets]=8 [soak]=8 [insight]=8 [class]=8
  [lessons]=9 [challenge]=9
  [core]=10
  [main]=11
)
# The parts of the student's kernel (app/usercode/<part>/README.md), lowest
# first: each may include its own part and lower parts, never a peer or a
# higher one. Its processes: the app, cudaviz-runner, cudaviz-explain.
declare -A part=(
  [usercode/prelude]=0 [usercode/wire]=0 [usercode/guard]=0 [usercode/sandbox]=0
  [usercode/emu]=1 [usercode/args]=1 [usercode/templates]=1
  [usercode/runner]=2 [usercode/explain]=2 [usercode/compile]=2
  [usercode/client]=3
)
# Parts that are programs of their own (cudaviz-runner, cudaviz-explain): no
# other part or folder includes them, whatever its layer (they run in another
# process; what both sides share is in wire/ and args/).
declare -A program=([usercode/runner]=1 [usercode/explain]=1)
# Parts that know nothing of the app: they include their own files and kernels/ only.
declare -A standalone=([usercode/prelude]=1 [usercode/wire]=1 [usercode/guard]=1)

folder_of() {  # app-relative path -> `folder`: its folder, nested part (usercode/wire) or root file's stem
  local rest b  # no subshell: this runs once a file and once an include
  case $1 in
    usercode/*/*) rest=${1#usercode/}; folder="usercode/${rest%%/*}" ;;
    */*) folder="${1%%/*}" ;;
    *) b=${1%.*}; folder="${b%%.*}" ;;
  esac
}

# A folder split into parts holds no files of its own: each file is in a part.
known() { [[ -n ${part[$1]+x} || ( $1 != */* && -n ${layer[$1]+x} && $1 != usercode ) ]]; }
# Sets `relation` to "" when `from` ($1) may include `to` ($2), else to what `to` is
# ("a peer", "a higher layer", ...). No subshells: this runs once an include.
ordering() {
  local lf=${layer[${1%%/*}]} lt=${layer[${2%%/*}]}
  if ((lt < lf)); then relation=""
  elif ((lt > lf)); then relation="a higher layer"
  elif [[ -n ${part[$1]+x} && -n ${part[$2]+x} && ${1%%/*} == "${2%%/*}" ]]; then
    if ((part[$2] < part[$1])); then relation=""
    elif ((part[$2] > part[$1])); then relation="a higher part"
    else relation="a peer part"; fi
  else relation="a peer"; fi
}
where() {  # "layer 3" or "layer 3, part 2"
  if [[ -n ${part[$1]+x} ]]; then echo "layer ${layer[${1%%/*}]}, part ${part[$1]}"
  else echo "layer ${layer[$1]}"; fi
}

bad=0
checked=0
# Each file's folder first (a file with no include is still placed), then
# every include line of app/ from one grep: no process per file (a process a
# file made this check 11 s on two cores, and its plants test 20 times that).
declare -A placed=()  # app-relative file -> its folder, when it has a place
while IFS= read -r file; do
  rel=${file#app/}
  folder_of "$rel"
  if [[ $folder == usercode ]]; then
    echo "$file: usercode/ is split into parts: put the file in one (usercode/README.md)"
    bad=1
  elif ! known "$folder"; then
    echo "$file: folder '$folder' has no layer: add it to scripts/check_deps.sh and docs/architecture.md"
    bad=1
  else
    placed[$file]=$folder
  fi
done < <(find app -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) | sort)

include_re='^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)"'
while IFS= read -r hit; do
  [[ $hit =~ $include_re ]] || continue
  file=${BASH_REMATCH[1]} line=${BASH_REMATCH[2]} inc=${BASH_REMATCH[3]}
  [[ -n ${placed[$file]+x} ]] || continue  # named above
  from=${placed[$file]}
  checked=$((checked + 1))
  [[ -f app/$inc ]] || continue  # kernels/ (common/, fountain/, labs/pi/, ...) or generated
  folder_of "$inc"; to=$folder
  [[ $to == "$from" ]] && continue
  if ! known "$to"; then
    echo "$file:$line: includes $inc from folder '$to', which has no layer"
    bad=1
  elif [[ -n ${standalone[$from]+x} ]]; then
    echo "$file:$line: $from includes $inc: $from knows nothing of the app (its own files and kernels/ only)"
    bad=1
  elif [[ -n ${program[$to]+x} ]]; then
    echo "$file:$line: $from includes $inc: $to is another process's program (only wire/ and args/ are shared)"
    bad=1
  elif ordering "$from" "$to"; [[ -n $relation ]]; then
    echo "$file:$line: $from ($(where "$from")) includes $inc: $to is $relation ($(where "$to"))"
    bad=1
  fi
done < <(grep -rn --include='*.h' --include='*.cpp' --include='*.cu' \
           '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' app | LC_ALL=C sort -t: -k1,1 -k2,2n)

# kernels/ knows nothing of the app: no include may resolve only under app/.
while IFS=: read -r file line inc; do
  checked=$((checked + 1))
  dir=${file%/*}
  if [[ -f app/$inc && ! -f kernels/$inc && ! -f $dir/$inc ]]; then
    echo "$file:$line: kernels include app/$inc"
    bad=1
  fi
done < <(grep -rn --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' \
           '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' kernels |
         sed -E 's/^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1:\2:\3/')

if ((bad)); then
  echo "check_deps: includes against the layer order (docs/architecture.md)"
  exit 1
fi
echo "check_deps: $checked includes follow the layer order" \
     "(config io process worker widgets registry < gl < timing record < cli render usercode < bench system < scenes labs < tuning < ui < presets soak < lessons < core < main;" \
     "usercode: prelude wire guard sandbox < emu args templates < runner explain compile < client)"
