#!/usr/bin/env bash
# GET /api/plugin/navigation over real HTTP (wrk) for a 200-step route and a character with
# 2,000 completions, in both match modes. Needs wrk (Debian package `wrk`).
# Usage: bash bench/navigation-wrk.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-16}
threads=$(( connections < 2 ? connections : 2 ))
bun=node_modules/.bin/bun
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

fifo=$(mktemp -u); mkfifo "$fifo"
$bun bench/navigationServer.ts >"$fifo" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$fifo"' EXIT
read -r line <"$fifo"
value() { echo "$line" | sed -E "s/.*\"$1\":\"?([^\",}]+).*/\1/"; }
port=$(value port); token=$(value token)
base="http://127.0.0.1:$port/api/plugin/navigation?characterId=$(value characterId)&routeId=$(value routeId)"

curl -fsS -H "Authorization: Bearer $token" "$base&match=remake" >/dev/null
echo "GET /navigation, 200 steps, 2,000 completions; wrk -t$threads -c$connections -d${duration}s (after a warm-up run)"
for match in setting remake; do
  wrk -t"$threads" -c"$connections" -d"${duration}s" -H "Authorization: Bearer $token" "$base&match=$match" >/dev/null
  out=$(wrk -t"$threads" -c"$connections" -d"${duration}s" --latency -H "Authorization: Bearer $token" "$base&match=$match")
  rps=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  p50=$(echo "$out" | awk '$1 == "50%" { print $2 }')
  p99=$(echo "$out" | awk '$1 == "99%" { print $2 }')
  non2xx=$(echo "$out" | awk '/Non-2xx/ { print $NF }')
  printf 'match=%-8s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$match" "$rps" "$p50" "$p99" "${non2xx:-0}"
done
