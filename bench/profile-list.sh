#!/usr/bin/env bash
# profile-list.sh [SECONDS]: CPU profile of the API serving the authenticated 50-item `GET E/items/` (the list of
# ../shared/bench/list-ratio.sh) under 50 connections. Writes a .cpuprofile into bench/profiles/ (not committed)
# and prints the heaviest functions by self time (bench/cpuprofile-top.js). Database scratch_c_profile (dropped at
# the end), port 3830, Redis db 3. Needs a built dist/ and autocannon (AUTOCANNON, default: the probe's).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
pg=${PERF_PG:-postgres://postgres:postgres@127.0.0.1:5432}
db=scratch_c_profile port=3830 out=bench/profiles
ac=${AUTOCANNON:-/tmp/perf-work/probe/node_modules/.bin/autocannon}
mkdir -p "$out"
export DATABASE_URL=$pg/$db REDIS_URL=redis://127.0.0.1:6379/3 QUEUE_PREFIX=profile$port LOG_LEVEL=warn NODE_ENV=production PORT=$port
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
node dist/src/database/migrate.js >/dev/null
tok=$(node dist/src/cli.js bootstrap --organizer perf --name perf 2>/dev/null |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')
setsid node --cpu-prof --cpu-prof-dir="$out" dist/src/main.js >/tmp/profile-api.log 2>&1 &
api=$!
cleanup() {
  kill -KILL -- -"$api" 2>/dev/null || true
  psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
for _ in $(seq 1 60); do curl -s -o /dev/null "http://127.0.0.1:$port/api/v1/organizers/" && break; sleep 1; done
b=http://127.0.0.1:$port/api/v1/organizers/perf
h=(-H "Authorization: Token $tok" -H 'Content-Type: application/json')
curl -s -o /dev/null "${h[@]}" -X POST "$b/events/" \
  -d '{"name":{"en":"Perf"},"slug":"perf","currency":"EUR","date_from":"2030-01-01T10:00:00Z"}'
for i in $(seq 1 50); do
  curl -s -o /dev/null "${h[@]}" -X POST "$b/events/perf/items/" -d "{\"name\":{\"en\":\"Item $i\"},\"default_price\":\"$i.00\"}"
done
"$ac" -c 50 -d 3 -H "Authorization=Token $tok" "$b/events/perf/items/" >/dev/null 2>&1
"$ac" -c 50 -d "$secs" -H "Authorization=Token $tok" "$b/events/perf/items/" 2>&1 | grep -E "requests in" || true
echo "API peak RSS: $(grep VmHWM /proc/$api/status | awk '{print $2}') kB; load $(cut -d' ' -f1-3 /proc/loadavg)"
kill -INT "$api"
for _ in $(seq 1 20); do kill -0 "$api" 2>/dev/null || break; sleep 0.5; done
node bench/cpuprofile-top.js "$(ls -t "$out"/*.cpuprofile | head -1)" 40
