#!/usr/bin/env bash
# The floor table, its growth with the data, and start-up on a 100 MB database: bench/floor.ts
# (the app against bench/bare.ts, Bun.serve + bun:sqlite doing the same statements).
# Needs wrk (Debian package `wrk`). Usage: bash bench/floor-wrk.sh [table|growth|latency|startup|all] [options]
# (options: see bench/floor.ts)
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-node_modules/.bin/bun}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
mode=${1:-all}
[ $# -gt 0 ] && shift
if [ "$mode" = all ]; then
  for m in table growth latency startup; do "$BUN" bench/floor.ts "$m" "$@"; done
else
  "$BUN" bench/floor.ts "$mode" "$@"
fi
