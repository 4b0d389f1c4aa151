#!/usr/bin/env bash
# POST completions (upsert) and GET progress (200 completions): the app against a bare
# Bun.serve + bun:sqlite baseline, at DATABASE_SYNCHRONOUS=normal and full.
# Needs wrk (Debian: apt-get install -y wrk). Usage: bash bench/completions-wrk.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-node_modules/.bin/bun}
DURATION=${1:-10}
CONNECTIONS=${2:-8}
WORK=$(mktemp -d)
APP_PORT=${APP_PORT:-8090}
BARE_PORT=${BARE_PORT:-8091}
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

wait_for() { # port
  for _ in $(seq 1 100); do
    if curl -fs -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$1/api/plugin/characters/$CHARACTER/progress"; then return 0; fi
    sleep 0.1
  done
  echo "server on port $1 did not start" >&2
  return 1
}

measure() { # label port
  local base="http://127.0.0.1:$2/api/plugin/characters/$CHARACTER"
  local post get
  post=$(NAMES_FILE="$WORK/names.txt" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s bench/upsert.lua \
    -H "Authorization: Bearer $TOKEN" "$base/completions")
  get=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" "$base/progress")
  for what in "POST completions:$post" "GET progress:$get"; do
    local name=${what%%:*} out=${what#*:}
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1=="50%" {print $2}' <<<"$out")
    p99=$(awk '$1=="99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '| %-6s | %-4s | %-16s | %10s | %8s | %8s | %s |\n' "$SYNC" "$1" "$name" "$rps" "$p50" "$p99" "${errors:-0}"
  done
}

echo "wrk -t1 -c$CONNECTIONS -d${DURATION}s on $(nproc) cores (shared with wrk itself); $(date -u +%FT%TZ)"
echo
echo '| sync   | server | request          |      req/s |      p50 |      p99 | non-2xx |'
echo '|--------|------|------------------|-----------:|---------:|---------:|---|'
for SYNC in normal full; do
  for SERVER in app bare; do
    DB="$WORK/bench-$SYNC-$SERVER.sqlite"
    read -r TOKEN CHARACTER < <("$BUN" bench/seed.ts "$DB")
    "$BUN" bench/names.ts "$DB" "$WORK/names.txt"
    if [ "$SERVER" = app ]; then
      DATABASE_SYNCHRONOUS=$SYNC CATALOG_SYNC_CRON=off LOG_LEVEL=error \
        "$BUN" src/main.ts serve --port "$APP_PORT" --host 127.0.0.1 --database "$DB" >"$WORK/server.log" 2>&1 &
      SERVER_PID=$!
      PORT=$APP_PORT
    else
      DATABASE_SYNCHRONOUS=$SYNC PORT=$BARE_PORT "$BUN" bench/bare.ts "$DB" >"$WORK/server.log" 2>&1 &
      SERVER_PID=$!
      PORT=$BARE_PORT
    fi
    wait_for "$PORT"
    measure "$SERVER" "$PORT"
    kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
  done
done
