#!/usr/bin/env bash
# scripts/mpi-check.sh SEEDS K...: the tablebase build on MPI against the plain build. Builds
# perfectplay with the feature `mpi`, builds both variants up to SEEDS seeds in one process,
# then under `mpirun --oversubscribe -np K ... --mpi` for each K, each into a directory of its
# own, and compares every layer file byte for byte with cmp. It also checks that the memory
# divides: each rank's peak resident memory above that of a build of 2 seeds with as many
# ranks (the program and MPI's own) must be at most 1/K of the plain build's above its own plus
# MPI_CHECK_BUFFERS MiB (the exchanges' buffers, 32 by default; at 16 seeds a rank that held
# every layer whole would exceed it by 20 MiB or more with 2 ranks). Then the value checks of
# the tests (brute force to 8 seeds, play-outs, distances, the published Awari position) run
# on the files of the last K's build (PERFECTPLAY_TEST_TABLES). Exits non-zero on any
# difference or failure. Needs Open MPI (Debian: libopenmpi-dev openmpi-bin) and libclang to
# build. MPI_CHECK_DIR (default target/mpi-check) holds the files; every rank runs one thread
# (RAYON_NUM_THREADS=1) unless RAYON_NUM_THREADS is set.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 SEEDS K..." >&2
  exit 2
fi
seeds=$1
shift
cd "$(dirname "$0")/.."
cargo build --release --features mpi
bin=target/release/perfectplay
out=${MPI_CHECK_DIR:-target/mpi-check}
buffers=${MPI_CHECK_BUFFERS:-32}
rm -rf "$out"
# Open MPI refuses to start as root unless told.
as_root=()
if [ "$(id -u)" = 0 ]; then as_root=(--allow-run-as-root); fi
# The peak memory (MiB) in a build's last line: the plain build's, or the largest rank's.
peak() {
  local line
  line=$(grep -E "up to [0-9]+ seeds:" | tail -1)
  if [[ $line == *" ranks ("* ]]; then
    grep -oE "[0-9]+ MiB(;|\))" <<<"${line#* ranks (}" | grep -oE "^[0-9]+" | sort -n | tail -1
  else
    grep -oE "peak memory [0-9]+ MiB" <<<"$line" | grep -oE "[0-9]+"
  fi
}
split_build() { # K SEEDS VARIANT DIR
  RAYON_NUM_THREADS=${RAYON_NUM_THREADS:-1} mpirun "${as_root[@]}" --oversubscribe -np "$1" \
    "$bin" tablebase build --seeds "$2" --variant "$3" --dir "$4" --mpi
}
for variant in awari abapa; do
  base=$("$bin" tablebase build --seeds 2 --variant "$variant" --dir "$out/base" | peak)
  plain=$("$bin" tablebase build --seeds "$seeds" --variant "$variant" --dir "$out/plain" | peak)
  for k in "$@"; do
    dir="$out/np$k"
    k_base=$(split_build "$k" 2 "$variant" "$out/base$k" | peak)
    report=$(split_build "$k" "$seeds" "$variant" "$dir")
    grep -E "^layer +$seeds:|up to" <<<"$report"
    for n in $(seq 0 "$seeds"); do
      name=$(printf 'oware-%s-%02d.tb' "$variant" "$n")
      cmp "$out/plain/$name" "$dir/$name"
    done
    echo "$variant, $k ranks: the $((seeds + 1)) layer files are identical to the plain build's"
    rank=$(peak <<<"$report")
    bound=$(awk -v p="$plain" -v b="$base" -v k="$k" -v m="$buffers" -v kb="$k_base" \
      'BEGIN { printf "%d", kb + (p - b) / k + m }')
    echo "$variant, $k ranks: the largest rank's peak $rank MiB (its base $k_base MiB), the plain" \
      "build's $plain MiB (base $base MiB): at most $bound MiB allowed"
    if [ "$rank" -gt "$bound" ]; then
      echo "$variant, $k ranks: the memory does not divide" >&2
      exit 1
    fi
  done
done
# The value checks on the layer files of the last build split over the most ranks given.
dir="$out/np${*: -1}"
checks=$(PERFECTPLAY_TEST_TABLES="$dir" cargo test --release --test it -- --include-ignored \
  oware_tablebase::awari_values_equal_brute_force_up_to_8_seeds \
  oware_tablebase::abapa_bounds_equal_brute_force_up_to_8_seeds \
  oware_tablebase::distances_equal_brute_force_up_to_8_seeds \
  oware_tablebase::play_outs_from_decisive_positions \
  oware_tablebase::abapa_bounds_hold_against_random_play \
  oware_tablebase::the_published_awari_position)
echo "$checks" | grep -E "^test |test result"
# All seven ran (a renamed test would drop out of the filters unseen).
grep -q "test result: ok. 7 passed" <<<"$checks"
echo "the value checks pass on the layer files built by ${*: -1} ranks in $dir"
