#!/usr/bin/env bash
# Catalog reads through the real HTTP server (Bun.serve + the whole app), measured with wrk
# (Debian package `wrk`). Starts bench/catalogServer.ts on a free port, runs each request for
# DURATION seconds with CONNECTIONS connections, prints p50/p99, stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk not found (apt-get install -y wrk)"; exit 1; }
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-8}
BUN=${BUN:-node_modules/.bin/bun}

out=$(mktemp)
"$BUN" bench/catalogServer.ts >"$out" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.1; done
read -r port token rows <"$out"
echo "catalog: $rows rows; wrk -t2 -c$CONNECTIONS -d${DURATION}s"
echo
echo "| request | p50 | p99 | requests/s |"
echo "|---|---|---|---|"
for path in \
  '/api/plugin/quests/search?q=delera&level=10' \
  '/api/plugin/quests/search?q=the&level=25' \
  '/api/plugin/quests/search?q=shroud&difficulty=Heroic' \
  '/api/plugin/quests/lookup?name=The%20Shroud' \
  '/api/plugin/quests'; do
  result=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path")
  p50=$(awk '$1=="50%"{print $2}' <<<"$result")
  p99=$(awk '$1=="99%"{print $2}' <<<"$result")
  rps=$(awk '/Requests\/sec/{print $2}' <<<"$result")
  non2xx=$(awk '/Non-2xx/{print $NF}' <<<"$result")
  [ -n "$non2xx" ] && { echo "$path: $non2xx non-2xx answers"; exit 1; }
  echo "| \`GET $path\` | $p50 | $p99 | $rps |"
done
