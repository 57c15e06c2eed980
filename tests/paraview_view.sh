#!/usr/bin/env bash
# CTest Postprocess.ParaViewViewScreenshotAndAnimation: postprocess/paraview_view.py under
# ParaView's pvbatch on a tiny run with a particle: --help describes it; the screenshot is a
# PNG of the asked size that is not one colour and shows the colour map; --animation writes
# one PNG per output time of solution.pvd; an unknown field is exit status 2 with a message
# naming it. Exit status 77 (skipped) without pvbatch (Debian's paraview and
# python3-paraview), or without a display and xvfb-run (Debian's xvfb) to give it one.
# Usage: paraview_view.sh GRANULAR_EXECUTABLE SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1; src=$2; work=$3
source "$src/tests/shell_checks.sh"
if ! command -v pvbatch > /dev/null; then
  echo "skipped: pvbatch is not installed (apt-get install paraview python3-paraview)"
  exit 77
fi
if [ -z "${DISPLAY:-}" ]; then
  if ! command -v xvfb-run > /dev/null; then
    echo "skipped: pvbatch needs a display: no DISPLAY and no xvfb-run (apt-get install xvfb)"
    exit 77
  fi
  # one virtual display for every pvbatch below (a new one per call races with the last
  # one's shutdown)
  exec xvfb-run -a -s "-screen 0 1280x1024x24" bash "$0" "$@"
fi
# run_pvbatch OUT ERR ARGS...: pvbatch on ARGS; a display that refuses the connection (Debian's
# pvbatch renders through X; a virtual display can drop a client under load) is the
# machine's lack, not the script's: the test is then skipped
run_pvbatch() {
  local out=$1 err=$2 status=0
  shift 2
  pvbatch "$@" > "$out" 2> "$err" || status=$?
  if [ "$status" -ne 0 ] && grep -q "bad X server connection" "$err"; then
    echo "skipped: pvbatch found no usable display (${DISPLAY:-none})"
    exit 77
  fi
  return "$status"
}
script=$src/postprocess/paraview_view.py
fresh_directory "$work"
"$exe" "$src/params/circular.prm" --output-directory "$work/run" \
  --set 'Geometry/Block length=3' --set 'Geometry/Block height=1.5' \
  --set 'Geometry/Elements in x=8' --set 'Geometry/Elements in y=4' \
  --set 'Loading/Time step=1e-3' --set 'Loading/Averaging time=0.2' \
  --set 'Output/VTU output interval=400' --set 'Output/Checkpoint interval=0' > "$work/run.log"

run_pvbatch "$work/help.txt" "$work/help.err" "$script" --help || fail "pvbatch --help failed"
expect_match "--animation" "$work/help.txt"
expect_match "pvbatch" "$work/help.txt"

run_pvbatch "$work/view.log" "$work/view.err" "$script" "$work/run" --field mean_stress \
  --time 0.001 --png "$work/view.png" --resolution 640 300 ||
  fail "pvbatch failed: $(tail -3 "$work/view.err")"
expect_file "$work/view.png"
"$PYTHON" - "$work/view.png" <<'PY' || fail "$work/view.png is not the picture of the run"
import sys
from PIL import Image
with Image.open(sys.argv[1]) as image:
    picture = image.convert("RGB")
width, height = picture.size
colours = picture.getcolors(width * height)
# the colour map's pixels: saturated, unlike the white background and the greys
saturated = sum(n for n, rgb in colours if max(rgb) - min(rgb) > 40)
print(f"{sys.argv[1]}: {width} x {height}, {len(colours)} colours, "
      f"{saturated / (width * height):.1%} of the pixels coloured by the field")
sys.exit(0 if (width, height) == (640, 300) and len(colours) >= 16
         and saturated > 0.01 * width * height else 1)
PY

run_pvbatch "$work/animation.log" "$work/animation.err" "$script" "$work/run" \
  --animation "$work/frames/view_%03d.png" --resolution 320 160 ||
  fail "pvbatch --animation failed: $(tail -3 "$work/animation.err")"
records=$(grep -c '<DataSet' "$work/run/solution.pvd")
frames=$(find "$work/frames" -name 'view_*.png' | wc -l)
[ "$frames" -eq "$records" ] || fail "--animation wrote $frames frames for $records output times"

status=0
run_pvbatch "$work/bad.log" "$work/bad.err" "$script" "$work/run" --field no_such_field \
  --png "$work/none.png" || status=$?
[ "$status" -eq 2 ] || fail "an unknown field: exit status $status, expected 2"
expect_match "no field 'no_such_field'" "$work/bad.err"
expect_no_match "Traceback" "$work/bad.err"
expect_no_file "$work/none.png"
echo "paraview_view.py: screenshot, $frames animation frames and the unknown field checked"
