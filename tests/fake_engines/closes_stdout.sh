#!/usr/bin/env bash
# A fake engine for the match runner's tests: it completes the handshake, then at its first `go`
# closes its standard output while it keeps running (until `quit` or the end of its input).
while read -r cmd _; do
  case "$cmd" in
    uci) echo "id name fake-closes-stdout"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go)
      exec 1>&-
      while read -r line; do [ "$line" = quit ] && exit 0; done
      exit 0
      ;;
    quit) exit 0 ;;
  esac
done
