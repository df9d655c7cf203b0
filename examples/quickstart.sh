#!/usr/bin/env bash
# The README walkthrough as a script, against a running server (`npm start` in another terminal):
# bootstrap an organizer, create an event, a category and two items, a team limited to that event with only
# `event.orders:read`, a token for it, and check that this token reads the event (200) but cannot change an
# item (403). Exits non-zero as soon as a step answers differently.
#   BASE_URL   API address (default http://127.0.0.1:3000)
#   ORGANIZER  organizer slug (default: a fresh one per run)
set -euo pipefail
cd "$(dirname "$0")/.."

BASE_URL="${BASE_URL:-http://127.0.0.1:3000}"
ORGANIZER="${ORGANIZER:-quickstart-$(date +%s)-$$}"
API="$BASE_URL/api/v1"

# json FIELD < body : prints one field of a JSON object (node is always there).
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s)[process.argv[1]];console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }

# call EXPECTED_STATUS METHOD PATH TOKEN [BODY] : prints the body, fails on another status.
call() {
  local expected=$1 method=$2 path=$3 token=$4 body=${5:-}
  local out status
  out=$(mktemp)
  if [ -n "$body" ]; then
    status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" "$API$path" -H "Authorization: Token $token" \
      -H 'Content-Type: application/json' -H 'Accept: application/json' --data "$body")
  else
    status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" "$API$path" -H "Authorization: Token $token" \
      -H 'Accept: application/json')
  fi
  if [ "$status" != "$expected" ]; then
    echo "FAIL: $method $path answered $status, expected $expected: $(cat "$out")" >&2
    rm -f "$out"
    exit 1
  fi
  echo "ok   $method $path -> $status" >&2
  cat "$out"
  rm -f "$out"
}

echo "1. bootstrap organizer '$ORGANIZER'" >&2
ADMIN_TOKEN=$(npm run --silent cli -- bootstrap --organizer "$ORGANIZER" --name "Quickstart Org" | json token)

echo "2. create an event" >&2
call 201 POST "/organizers/$ORGANIZER/events/" "$ADMIN_TOKEN" \
  '{"name": {"en": "Quickstart Conference"}, "slug": "conf", "currency": "EUR", "date_from": "2030-06-01T09:00:00Z", "date_to": "2030-06-01T18:00:00Z"}' >/dev/null

echo "3. create a category" >&2
CATEGORY=$(call 201 POST "/organizers/$ORGANIZER/events/conf/categories/" "$ADMIN_TOKEN" '{"name": {"en": "Tickets"}}' | json id)

echo "4. create two items" >&2
ITEM=$(call 201 POST "/organizers/$ORGANIZER/events/conf/items/" "$ADMIN_TOKEN" \
  "{\"name\": {\"en\": \"Regular ticket\"}, \"default_price\": \"49.00\", \"category\": $CATEGORY, \"admission\": true}" | json id)
call 201 POST "/organizers/$ORGANIZER/events/conf/items/" "$ADMIN_TOKEN" \
  "{\"name\": {\"en\": \"Workshop\"}, \"default_price\": \"120.00\", \"category\": $CATEGORY}" >/dev/null

echo "5. create a team limited to the event with only event.orders:read" >&2
TEAM=$(call 201 POST "/organizers/$ORGANIZER/teams/" "$ADMIN_TOKEN" \
  '{"name": "Readers", "limit_events": ["conf"], "limit_event_permissions": ["event.orders:read"]}' | json id)

echo "6. create a token for that team" >&2
READER_TOKEN=$(call 201 POST "/organizers/$ORGANIZER/teams/$TEAM/tokens/" "$ADMIN_TOKEN" '{"name": "reader"}' | json token)

echo "7. the team token reads the event" >&2
call 200 GET "/organizers/$ORGANIZER/events/conf/" "$READER_TOKEN" >/dev/null

echo "8. the team token may not change an item" >&2
call 403 PATCH "/organizers/$ORGANIZER/events/conf/items/$ITEM/" "$READER_TOKEN" '{"default_price": "1.00"}' >/dev/null

echo "Quickstart walkthrough passed." >&2
