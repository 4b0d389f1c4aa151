#!/usr/bin/env bash
# Foundation benchmark: GET /api/health and GET /api/plugin/auth/me on Quest Tracker against a
# bare Bun.serve returning the same bytes, one server at a time, side by side in one run.
# Needs wrk (Debian package `wrk`). Usage: bash bench/foundation-wrk.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-32}
bun=node_modules/.bin/bun
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

declare -A results
for kind in bare app; do
  fifo=$(mktemp -u); mkfifo "$fifo"
  $bun bench/lib/servers.ts "$kind" >"$fifo" &
  pid=$!
  read -r line <"$fifo"; rm -f "$fifo"
  port=$(echo "$line" | sed -E 's/.*"port":([0-9]+).*/\1/')
  token=$(echo "$line" | sed -E 's/.*"token":"([^"]+)".*/\1/')
  for path in /api/health /api/plugin/auth/me; do
    wrk -t2 -c"$connections" -d"${duration}s" -H "Authorization: Bearer $token" \
      -s bench/lib/report.lua "http://127.0.0.1:$port$path" >/dev/null 2>&1 || true
    results["$kind $path"]=$(wrk -t2 -c"$connections" -d"${duration}s" -H "Authorization: Bearer $token" \
      -s bench/lib/report.lua "http://127.0.0.1:$port$path" | tail -n 1)
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
done

field() { echo "$1" | sed -E "s/.*\"$2\": ([0-9.]+).*/\1/"; }
printf '%-22s %12s %10s %12s %10s %8s\n' path 'bare req/s' 'bare p99' 'app req/s' 'app p99' ratio
for path in /api/health /api/plugin/auth/me; do
  bare=${results["bare $path"]}; app=${results["app $path"]}
  br=$(field "$bare" rps); ar=$(field "$app" rps)
  printf '%-22s %12s %8sms %12s %8sms %8s\n' "$path" "$br" "$(field "$bare" p99)" "$ar" "$(field "$app" p99)" \
    "$(awk -v a="$ar" -v b="$br" 'BEGIN { printf "%.2f", a / b }')"
done
