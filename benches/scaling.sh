#!/usr/bin/env bash
# Scaling of the print build with the number of cards, cold and warm, and the full build of
# the four shipped games: wall time and peak memory (`/usr/bin/time -v`, maximum resident
# set size) of one `printplay` process per build. Writes a Markdown table to stdout.
#
#   benches/scaling.sh AFTER_BIN [BEFORE_BIN]
#
# AFTER_BIN and BEFORE_BIN are release binaries (`cargo build --release`, then copy
# target/release/printplay aside for the "before" one); with both, every row is measured
# for each, one after the other, in the same run. The generated game is the scaffold
# (`printplay new`) with N distinct poker cards in its cards.csv (no count rules).
#
#   cold    an empty output folder (no cache)
#   warm    the same data built again into the same folder
#   1 edit  one card's name changed, then built again (what `watch` rebuilds)
# SIZES and FULL_SIZES (card counts, default "100 1000 4000") choose the generated games
# (BEFORE_FULL_SIZES, default "100 1000", those whose full build the old binary runs);
# GAMES=0 stops after them (no shipped games, no watch).
# The last rows time `printplay watch` itself: from saving a one-card edit to `cards.pdf`
# changing, to the end of the round (the time the watch prints), and its peak memory so far.
# WATCH_EDITS (default 1) edits are made in each watch, and WATCH_SESSIONS (default 1)
# watches are run for each binary, the binaries taking turns; WATCH_ONLY=1 runs the watch
# rows alone.
set -euo pipefail

AFTER=$(realpath "$1")
BEFORE=${2:+$(realpath "$2")}
SIZES=${SIZES:-"100 1000 4000"}
FULL_SIZES=${FULL_SIZES:-"100 1000 4000"}
BEFORE_FULL_SIZES=${BEFORE_FULL_SIZES:-"100 1000"}
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One build: "seconds megabytes".
measure() {
  local log="$WORK/time.log"
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
                 for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
               /Maximum resident set size/ { mb = $2 / 1024 }
               END { printf "%.2f s, %.0f MB", wall, mb }' "$log"
}

# A data folder holding the scaffold game `big` with $1 distinct cards.
generate() {
  local n=$1 data="$WORK/data-$1"
  rm -rf "$data"
  "$AFTER" --data "$data" new big >/dev/null
  sed -i '/^# Count rules/,$d' "$data/big/game.toml"
  {
    echo "id,name,count,text,suit,value,art"
    local suits=(sun moon star)
    for ((i = 0; i < n; i++)); do
      echo "c$i,Card $i,1,Card number $i of the generated deck: play it to take the lead.,${suits[i % 3]},$((i % 9 + 1)),art/emblem.svg"
    done
  } >"$data/big/cards.csv"
  echo "$data"
}

edit_one() {
  local data=$1 n=$2 stamp=$3
  local mid=$((n / 2))
  sed -i "s/^c$mid,[^,]*,/c$mid,Edited $stamp,/" "$data/big/cards.csv"
}

row() { printf '| %s |' "$1"; shift; for c in "$@"; do printf ' %s |' "$c"; done; echo; }

bins=("$AFTER")
names=(after)
if [[ -n "$BEFORE" ]]; then bins=("$BEFORE" "$AFTER"); names=(before after); fi

echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores."
echo
[[ ${WATCH_ONLY:-0} == 1 ]] || {
row "build" "cards" "printplay" "cold" "warm" "1 edit"
row "---" "---:" "---" "---:" "---:" "---:"
for scope in cards full; do
  sizes=$SIZES
  [[ $scope == full ]] && sizes=$FULL_SIZES
  for n in $sizes; do
    data=$(generate "$n")
    for i in "${!bins[@]}"; do
      bin=${bins[$i]} out="$WORK/out-$n-${names[$i]}"
      # The old binary redoes everything each time: its full build is timed on the smaller
      # games only (BEFORE_FULL_SIZES), where it costs a minute at most.
      if [[ $scope == full && ${names[$i]} == before && " $BEFORE_FULL_SIZES " != *" $n "* ]]; then
        continue
      fi
      only=()
      [[ $scope == cards ]] && only=(--only cards)
      rm -rf "$out"
      cold=$(measure "$bin" --data "$data" build big "${only[@]}" --out "$out")
      warm=$(measure "$bin" --data "$data" build big "${only[@]}" --out "$out")
      edit_one "$data" "$n" "${names[$i]}"
      edited=$(measure "$bin" --data "$data" build big "${only[@]}" --out "$out")
      label="--only cards"
      [[ $scope == full ]] && label="full"
      row "$label" "$n" "${names[$i]}" "$cold" "$warm" "$edited"
    done
  done
done

[[ ${GAMES:-1} == 0 ]] && exit 0
echo
row "four shipped games, full build" "printplay" "cold" "warm"
row "---" "---" "---:" "---:"
for i in "${!bins[@]}"; do
  out="$WORK/games-${names[$i]}"
  cold=$(measure "${bins[$i]}" --data "$REPO/data" build --out "$out")
  warm=$(measure "${bins[$i]}" --data "$REPO/data" build --out "$out")
  row "all four" "${names[$i]}" "$cold" "$warm"
done
}

# `watch` on the 1,000-card game: a one-card edit, timed to the new cards.pdf and to the end
# of the round, and the watch's peak memory so far (`VmHWM`).
watch_edit() {
  local bin=$1 label=$2 n=1000
  local data out log
  data=$(generate "$n")
  out="$WORK/watch-$label"
  log="$WORK/watch-$label.log"
  "$bin" --data "$data" watch big --out "$out" >"$log" 2>&1 &
  local pid=$!
  until grep -q "^built" "$log" 2>/dev/null; do sleep 0.2; done
  sleep 1
  local pdf="$out/big/cards.pdf" before start end round k
  for ((k = 1; k <= ${WATCH_EDITS:-1}; k++)); do
    before=$(stat -c %.9Y "$pdf")
    start=$(date +%s.%N)
    edit_one "$data" "$n" "watched $k"
    while [[ $(stat -c %.9Y "$pdf") == "$before" ]]; do sleep 0.005; done
    end=$(date +%s.%N)
    until [[ $(grep -c "^built" "$log") -gt $k ]]; do sleep 0.05; done
    round=$(grep "^built" "$log" | tail -1 | sed 's/.* in \([0-9]*\) ms.*/\1/')
    hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
    awk -v l="$label" -v s="$start" -v e="$end" -v r="$round" -v m="$hwm" -v a="$(cut -d' ' -f1 /proc/loadavg)" \
      'BEGIN { printf "| %s | %.2f s | %.2f s | %.0f MB | %s |\n", l, e - s, r / 1000, m / 1024, a }'
    sleep 1
  done
  kill -INT "$pid"
  wait "$pid" || true
}

echo
echo "| watch, 1,000 cards, one card edited | new cards.pdf after the save | whole round | peak memory so far | load |"
echo "| --- | ---: | ---: | ---: | ---: |"
for ((session = 1; session <= ${WATCH_SESSIONS:-1}; session++)); do
  for i in "${!bins[@]}"; do
    watch_edit "${bins[$i]}" "${names[$i]}"
  done
done
