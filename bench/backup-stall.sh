#!/bin/bash
# Does the server answer while its scheduled backup copies a large file? Starts the app on
# DATABASE with BACKUP_CRON 12 s ahead (the copy into a temporary BACKUP_DIR, removed after),
# loads /api/health with wrk for 100 s through the copy (a 1.7 GB file takes 60-75 s here), and prints wrk's latency, the backup's
# log line and the copy. The community file is bench/community.ts's (built there, kept in /tmp).
# Usage: bash bench/backup-stall.sh [APP_DIR (another checkout: a version before)] [DATABASE]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-$here}
database=${2:-/tmp/qt-community/community.sqlite}
bun=${BUN:-$(command -v bun || echo "$here/node_modules/.bin/bun")}
port=${PORT:-18181}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Local time: the server reads BACKUP_CRON in its own time zone.
at=$(date -d '+12 seconds' '+%S %M %H')
cd "$app"
DATABASE_PATH=$database BACKUP_DIR=$work/backups BACKUP_CRON="$at * * *" CATALOG_SYNC_CRON=off LOG_LEVEL=info \
  "$bun" src/main.ts serve --port "$port" --host 127.0.0.1 > "$work/log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/api/health" && break; sleep 0.2; done
wrk -t1 -c4 -d100s --latency "http://127.0.0.1:$port/api/health" > "$work/wrk" 2>&1
# The copy may still be finishing: wait for its line (at most a minute more).
for _ in $(seq 1 60); do grep -q 'backup written\|backup failed' "$work/log" && break; sleep 1; done
kill "$server"
wait "$server" 2>/dev/null || true
grep -E 'Latency|99%|requests in|Requests/sec|Socket' "$work/wrk"
grep -i backup "$work/log" || echo 'no backup line: was it written?'
ls -l "$work/backups" 2>/dev/null || true
