#!/usr/bin/env bash
# scripts/mpi-check.sh SEEDS K...: the tablebase build on MPI against the plain build. Builds
# perfectplay with the feature `mpi`, builds both variants up to SEEDS seeds in one process,
# then under `mpirun --oversubscribe -np K ... --mpi` for each K, each into a directory of its
# own, and compares every layer file byte for byte with cmp. Exits non-zero on any difference
# or failure. Needs Open MPI (Debian: libopenmpi-dev openmpi-bin) and libclang to build.
# MPI_CHECK_DIR (default target/mpi-check) holds the files; every rank runs one thread
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
rm -rf "$out"
# Open MPI refuses to start as root unless told.
as_root=()
if [ "$(id -u)" = 0 ]; then as_root=(--allow-run-as-root); fi
for variant in awari abapa; do
  "$bin" tablebase build --seeds "$seeds" --variant "$variant" --dir "$out/plain" >/dev/null
  for k in "$@"; do
    dir="$out/np$k"
    RAYON_NUM_THREADS=${RAYON_NUM_THREADS:-1} mpirun "${as_root[@]}" --oversubscribe -np "$k" \
      "$bin" tablebase build --seeds "$seeds" --variant "$variant" --dir "$dir" --mpi \
      | grep -E "^layer +$seeds:|up to"
    for n in $(seq 0 "$seeds"); do
      name=$(printf 'oware-%s-%02d.tb' "$variant" "$n")
      cmp "$out/plain/$name" "$dir/$name"
    done
    echo "$variant, $k ranks: the $((seeds + 1)) layer files are identical to the plain build's"
  done
done
