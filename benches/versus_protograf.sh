#!/usr/bin/env bash
# Capek Golems' 54 cards, `printplay build capek-golems --only cards` from an empty output
# folder, against protograf drawing a comparable 54-card deck (benches/protograf/capek_like.py:
# poker cards with a coloured frame, name, symbol and wrapped text, a back each, one PDF with
# crop marks). Wall time, CPU time (user + system) and peak memory (maximum resident set size,
# `/usr/bin/time -v`) of one process per build; the median of RUNS runs (default 9), the
# binaries taking turns so that a change of load falls on all of them alike.
#
#   benches/versus_protograf.sh AFTER_BIN [BEFORE_BIN]
#
# PYTHON is the Python that has protograf (default python3; `pip install protograf`, 0.5.2
# was measured). Writes a Markdown table to stdout.
set -euo pipefail

AFTER=$(realpath "$1")
BEFORE=${2:+$(realpath "$2")}
PYTHON=${PYTHON:-python3}
RUNS=${RUNS:-9}
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$PYTHON" -c 'import protograf' 2>/dev/null || {
  echo "$PYTHON has no protograf: pip install protograf, or set PYTHON" >&2
  exit 2
}

# One run: "wall_s cpu_s mb" on stdout.
measure() {
  local log="$WORK/time.log"
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
  end=$(date +%s.%N)
  # Wall time from the clock around the process (time -v rounds to 10 ms).
  awk -F': ' -v wall="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" '
               /User time/ { cpu += $2 } /System time/ { cpu += $2 }
               /Maximum resident set size/ { mb = $2 / 1024 }
               END { printf "%.3f %.3f %.1f\n", wall, cpu, mb }' "$log"
}

printplay_run() {
  local out="$WORK/out"
  rm -rf "$out"
  measure "$1" --data "$REPO/data" build capek-golems --only cards --out "$out"
}

protograf_run() {
  local out="$WORK/pg"
  rm -rf "$out" && mkdir -p "$out"
  (cd "$out" && measure "$PYTHON" "$REPO/benches/protograf/capek_like.py")
}

names=(protograf after)
[[ -n "$BEFORE" ]] && names=(protograf before after)
declare -A runs
for ((k = 0; k < RUNS; k++)); do
  runs[protograf]+="$(protograf_run)"$'\n'
  [[ -n "$BEFORE" ]] && runs[before]+="$(printplay_run "$BEFORE")"$'\n'
  runs[after]+="$(printplay_run "$AFTER")"$'\n'
done

# The median of column $2 of the lines in $1.
median() { sort -g -k"$2" <<<"$1" | sed '/^$/d' | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }

pg_wall=$(median "${runs[protograf]}" 1)
pg_mb=$(median "${runs[protograf]}" 3)
echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; median of $RUNS runs."
echo
echo "| Capek, 54 cards | wall | CPU | peak memory | wall / protograf | memory / protograf |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for name in "${names[@]}"; do
  wall=$(median "${runs[$name]}" 1)
  cpu=$(median "${runs[$name]}" 2)
  mb=$(median "${runs[$name]}" 3)
  awk -v n="$name" -v w="$wall" -v c="$cpu" -v m="$mb" -v pw="$pg_wall" -v pm="$pg_mb" \
    'BEGIN { printf "| %s | %.0f ms | %.0f ms | %.1f MiB | 1/%.1f | 1/%.1f |\n",
             n, w * 1000, c * 1000, m, pw / w, pm / m }'
done
