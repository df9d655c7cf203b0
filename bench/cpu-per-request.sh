#!/usr/bin/env bash
# cpu-per-request.sh [REQUESTS]: CPU milliseconds per request (API process, and all PostgreSQL backends) for the
# authenticated 50-item `GET E/items/`, at 50 connections, measured from /proc (user+sys ticks), so that a busy
# machine changes the figure little. Also with `?page_size=3` (small body), to split body-size costs from fixed
# ones. Database scratch_c_cpu (dropped at the end), port 3831, Redis db 3.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3000}
pg=${PERF_PG:-postgres://postgres:postgres@127.0.0.1:5432}
db=scratch_c_cpu port=3831
ac=${AUTOCANNON:-/tmp/perf-work/probe/node_modules/.bin/autocannon}
export DATABASE_URL=$pg/$db REDIS_URL=redis://127.0.0.1:6379/3 QUEUE_PREFIX=cpu$port LOG_LEVEL=warn NODE_ENV=production PORT=$port
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
node dist/src/database/migrate.js >/dev/null
tok=$(node dist/src/cli.js bootstrap --organizer perf --name perf 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')
setsid node ${NODE_ARGS:-} dist/src/main.js >/tmp/cpu-api.log 2>&1 &
api=$!
cleanup() { kill -TERM -- -"$api" 2>/dev/null || true; sleep 1; kill -KILL -- -"$api" 2>/dev/null || true; psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; }
trap cleanup EXIT
for _ in $(seq 1 60); do curl -s -o /dev/null "http://127.0.0.1:$port/api/v1/organizers/" && break; sleep 1; done
b=http://127.0.0.1:$port/api/v1/organizers/perf
h=(-H "Authorization: Token $tok" -H 'Content-Type: application/json')
curl -s -o /dev/null "${h[@]}" -X POST "$b/events/" -d '{"name":{"en":"Perf"},"slug":"perf","currency":"EUR","date_from":"2030-01-01T10:00:00Z"}'
for i in $(seq 1 50); do curl -s -o /dev/null "${h[@]}" -X POST "$b/events/perf/items/" -d "{\"name\":{\"en\":\"Item $i\"},\"default_price\":\"$i.00\"}"; done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
pgticks() { local s=0 p; for p in $(pgrep -f "postgres: .*$db" || true); do s=$((s + $(ticks "$p" 2>/dev/null || echo 0))); done; echo $s; }
hz=$(getconf CLK_TCK)
measure() {
  "$ac" -c 50 -a 500 -H "Authorization=Token $tok" "$1" >/dev/null 2>&1
  local a0 p0 a1 p1
  a0=$(ticks "$api"); p0=$(pgticks)
  "$ac" -c 50 -a "$n" -H "Authorization=Token $tok" "$1" >/dev/null 2>&1
  a1=$(ticks "$api"); p1=$(pgticks)
  node -e "const [a,p,n,hz]=process.argv.slice(1).map(Number);console.log('api', (1000*a/hz/n).toFixed(2), 'ms/request; postgres', (1000*p/hz/n).toFixed(2), 'ms/request')" $((a1 - a0)) $((p1 - p0)) "$n" "$hz"
}
[ -z "${SMALL_ONLY:-}" ] && echo "50 items: $(measure "$b/events/perf/items/")"
echo "page_size=3: $(measure "$b/events/perf/items/?page_size=3")"
echo "API RSS peak: $(grep VmHWM /proc/$api/status | awk '{print $2}') kB; load $(cut -d' ' -f1-3 /proc/loadavg)"
