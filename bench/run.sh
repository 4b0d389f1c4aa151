#!/usr/bin/env bash
# Runs every benchmark: the mitata files (bench/*.bench.ts), then the wrk scripts (bench/*-wrk.sh)
# when wrk is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-node_modules/.bin/bun}
for file in bench/*.bench.ts; do
  echo "== $file"
  "$BUN" "$file"
done
if command -v wrk >/dev/null; then
  for script in bench/*-wrk.sh; do
    echo "== $script"
    bash "$script"
  done
else
  echo "(wrk not installed: skipping bench/*-wrk.sh; apt-get install -y wrk)"
fi
