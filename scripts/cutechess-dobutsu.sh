#!/usr/bin/env bash
# Plays perfectplay against Fairy-Stockfish in Dobutsu Shogi under cutechess-cli, as a user of
# cutechess would, and checks that every game ended by the rules: no "doesn't support variant"
# warning, no illegal move, no error result, no unfinished game. Not run by CI (it needs
# cutechess-cli and Fairy-Stockfish, which ../shared/anchors/ builds from their public sources).
#
# usage: scripts/cutechess-dobutsu.sh CUTECHESS_CLI FAIRY_STOCKFISH [GAMES]
#   Runs two matches of GAMES games each (default 20), openings from data/dobutsu-openings.epd
#   in cutechess's FEN form, colours swapped in each pair:
#   1. tc=inf nodes=20000 for both engines;
#   2. tc=10+0.1 for both, perfectplay with Threads=2.
#   perfectplay runs with AutoSolve=false, so that it plays by search as a tester expects.
# Writes the PGN files and cutechess's output to $OUT (default a temporary folder) and exits
# non-zero at the first check that fails.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,14p "$0" >&2; exit 2; }
CUTECHESS=$1; FSF=$2; GAMES=${3:-20}
cd "$(dirname "$0")/.."
cargo build --release --quiet
ENGINE=$PWD/target/release/perfectplay
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
check() {
  local name=$1 log=$OUT/$1.log pgn=$OUT/$1.pgn
  if grep -qiE "warning|illegal|error|disconnect|stall" "$log"; then
    echo "$name: cutechess complained:" >&2; grep -iE "warning|illegal|error|disconnect|stall" "$log" >&2; exit 1
  fi
  local results played
  results=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$pgn" || true)
  played=$(grep -c '^\[Result ' "$pgn" || true)
  if [ "$played" -ne "$GAMES" ] || [ "$results" -ne "$GAMES" ]; then
    echo "$name: $results of $played games finished by the rules, $GAMES expected" >&2; exit 1
  fi
  if grep -q '^\[Termination "\(abandoned\|time forfeit\|illegal move\|stalled connection\)' "$pgn"; then
    echo "$name: a game was not ended by the rules" >&2; exit 1
  fi
  echo "$name: $GAMES games, all ended by the rules; $(grep '^Score of' "$log" | tail -1)"
}
run() {
  local name=$1; shift
  "$CUTECHESS" -variant dobutsu \
    -engine name=perfectplay cmd="$ENGINE" proto=uci option.AutoSolve=false "$@" \
    -engine name=fairy-stockfish cmd="$FSF" proto=uci \
    -games "$GAMES" -repeat -recover \
    -openings file=data/dobutsu-openings.epd format=epd order=sequential \
    -pgnout "$OUT/$name.pgn" > "$OUT/$name.log" 2>&1
  check "$name"
}
run nodes -each tc=inf nodes=20000
run clock option.Threads=2 -each tc=10+0.1
echo "output in $OUT"
