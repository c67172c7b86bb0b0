#!/usr/bin/env bash
# Usage: run_record_test.sh CUDAVIZ OUT_DIR
# Clips: records 30 frames of the fountain on the CPU backend to MP4
# and to GIF in a window whose size is odd (641x361: cropped to 640x360), and
# checks each file with ffprobe: 30 decoded frames, the even size, the codec
# and pixel format, and that two consecutive frames differ. Then: no ffmpeg on
# PATH is exit 2 with the install sentence, and an ffmpeg that dies mid-clip
# ends the recording with its stderr while the run goes on (exit 1, no file left).
set -euo pipefail
# One display for every run of this test (a server each cost about a second): the
# script re-runs itself in it; with DISPLAY set, with_xvfb.sh runs each app there.
[ -n "${DISPLAY:-}" ] || exec "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24" "$0" "$@"
app=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
# The one line that decides how a window opens here.
xvfb=("$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24")  # its own display (runs directly when DISPLAY is set)
for tool in ffmpeg ffprobe; do
  command -v $tool >/dev/null || { echo "FAIL: $tool not installed (scripts/deps.sh --test)"; exit 1; }
done
fail() { echo "FAIL: $*"; exit 1; }
field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2- | tr -d '"'; }

record() {  # record() FILE [ARGS...]: 30 frames, prints the summary's "record" object
  local out=$1; shift
  local summary
  summary=$("${xvfb[@]}" "$app" --scene fountain --backend cpu --n 16384 --frames 30 \
            --size 641x361 --record "$out" "$@")
  grep -o '"record":{[^}]*}' <<<"$summary" || fail "no record fields in: $summary"
}

check_clip() {  # check_clip FILE CODEC PIX_FMT RECORD_JSON
  local file=$1 codec=$2 pix=$3 rec=$4
  [ "$(field state "$rec")" = saved ] || fail "$file: state is not saved: $rec"
  [ "$(field frames "$rec")" = 30 ] || fail "$file: summary frames: $rec"
  [ "$(field dropped "$rec")" = 0 ] || fail "$file: dropped frames: $rec"
  [ "$(field width "$rec")x$(field height "$rec")" = 640x360 ] || fail "$file: summary size: $rec"
  [ "$(field cropped "$rec")" = true ] || fail "$file: 641x361 should be cropped: $rec"
  [ ! -e "$file.part" ] || fail "$file.part left behind"
  local probe
  probe=$(ffprobe -v error -count_frames -select_streams v:0 \
          -show_entries stream=nb_read_frames,width,height,codec_name,pix_fmt -of default=nw=1 "$file")
  echo "ffprobe $file:"; echo "$probe"
  grep -qx "codec_name=$codec" <<<"$probe" || fail "$file: codec is not $codec"
  grep -qx "pix_fmt=$pix" <<<"$probe" || fail "$file: pix_fmt is not $pix"
  grep -qx "width=640" <<<"$probe" && grep -qx "height=360" <<<"$probe" || fail "$file: not 640x360"
  grep -qx "nb_read_frames=30" <<<"$probe" || fail "$file: not 30 frames"
  # Frames 10 and 11 decoded: one simulation step apart, so they must differ.
  local sums
  sums=$(ffmpeg -v error -i "$file" -vf "select='between(n,10,11)'" -fps_mode passthrough -f framemd5 - |
         grep -v '^#' | awk -F', *' '{print $NF}')
  [ "$(wc -l <<<"$sums")" = 2 ] || fail "$file: could not decode frames 10 and 11: $sums"
  [ "$(sort -u <<<"$sums" | wc -l)" = 2 ] || fail "$file: frames 10 and 11 are identical"
  echo "$file: frames 10 and 11 differ"
}

rec=$(record "$dir/fountain.mp4"); echo "$rec"
check_clip "$dir/fountain.mp4" h264 yuv420p "$rec"
[ "$(field encoder "$rec")" = libx264 ] || fail "encoder: $rec"
# Upright (glReadPixels' rows are bottom-up; ffmpeg flips them): the framed fountain's
# table lies just below the middle of the picture, the sky above it is dark.
yavg() {
  ffmpeg -v error -i "$dir/fountain.mp4" \
    -vf "select='eq(n,29)',crop=iw:ih/4:0:$1,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-" \
    -f null - | grep -o 'YAVG=[0-9.]*' | cut -d= -f2 | cut -d. -f1
}
top=$(yavg 0) bottom=$(yavg 'ih/2')
echo "mean luma of frame 29: top quarter $top, quarter below the middle $bottom"
[ "$bottom" -gt $((top + 10)) ] || fail "the clip looks upside down (top $top, bottom $bottom)"
rec=$(record "$dir/fountain.gif" --record-ui); echo "$rec"
check_clip "$dir/fountain.gif" gif bgra "$rec"
[ "$(field include_ui "$rec")" = true ] || fail "--record-ui not in the summary: $rec"

# No ffmpeg on PATH: a usage error before any window opens (no display needed).
mkdir -p "$dir/empty"
set +e
msg=$(PATH="$dir/empty" "$app" --backend cpu --frames 3 --record "$dir/none.mp4" 2>&1); rc=$?
set -e
echo "$msg"
[ $rc = 2 ] || fail "without ffmpeg the exit code is $rc, expected 2"
grep -q "not found on PATH; install it with: sudo apt install ffmpeg" <<<"$msg" || fail "no install sentence"

# An ffmpeg that reads a little, complains and dies: the clip fails with its words,
# the scripted run still draws its 30 frames, exits 1, and leaves no file.
mkdir -p "$dir/fake"
printf '#!/bin/sh\nhead -c 300000 >/dev/null\necho "fake ffmpeg: No space left on device" >&2\nexit 1\n' \
  >"$dir/fake/ffmpeg"
chmod +x "$dir/fake/ffmpeg"
set +e
out=$("${xvfb[@]}" env PATH="$dir/fake:$PATH" "$app" --backend cpu --n 16384 --frames 30 \
      --size 320x240 --record "$dir/dies.mp4" 2>"$dir/dies.err"); rc=$?
set -e
cat "$dir/dies.err"
[ $rc = 1 ] || fail "a dying ffmpeg: exit code $rc, expected 1"
grep -q "fake ffmpeg: No space left on device" "$dir/dies.err" || fail "ffmpeg's stderr not reported"
grep -q '"frames":30,' <<<"$out" || fail "the run did not go on to 30 frames: $out"
grep -q '"state":"failed"' <<<"$out" || fail "the summary does not say failed: $out"
[ ! -e "$dir/dies.mp4" ] && [ ! -e "$dir/dies.mp4.part" ] || fail "a failed clip left a file"
echo PASS
