#!/bin/bash
# Makes the shipped set of puzzles (docs/puzzles.md, "The shipped set"): the same
# commands write the same file. Usage: scripts/ship_puzzles.sh [WORKDIR]
# Two streams run at once; each configuration writes its own file, and the files are
# joined in a fixed order and compressed without a time stamp.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
SEED=2026
# variant players games
A="express 2 1100
extreme 4 120
expert 4 120"
B="expert 2 300
extreme 2 300
express 3 150
express 4 150
extreme 3 120
expert 3 120"

run() {
  while read -r variant players games; do
    [ -z "$variant" ] && continue
    start=$(date +%s)
    shiftago puzzles generate --self-play "$games" --seed "$SEED" --variant "$variant" \
      --players "$players" --max-actions 3 --out "$work/$variant-$players.jsonl" \
      2>"$work/$variant-$players.log"
    echo "$variant $players: $games games, $(($(date +%s) - start)) s," \
      "$(wc -l <"$work/$variant-$players.jsonl") puzzles" | tee -a "$work/times.txt"
  done <<<"$1"
}

run "$A" &
run "$B" &
wait
: >"$work/all.jsonl"
for variant in express expert extreme; do
  for players in 2 3 4; do
    cat "$work/$variant-$players.jsonl" >>"$work/all.jsonl"
  done
done
gzip -n -9 -c "$work/all.jsonl" >"$here/src/shiftago/engine/puzzles/shipped.jsonl.gz"
wc -l "$work/all.jsonl"
