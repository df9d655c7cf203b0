#!/usr/bin/env bash
# Migration drift check: migrates a scratch database with migrations/ and asks TypeORM whether the entities would
# need another migration. Fails (exit 1) when entities and migrations differ.
set -euo pipefail
cd "$(dirname "$0")/.."
server="${TEST_DATABASE_SERVER:-postgres://postgres:postgres@127.0.0.1:5432}"
db="ticketing_drift_$$"
export DATABASE_URL="${server%/}/${db}"
cleanup() { psql "${server%/}/postgres" -qc "DROP DATABASE IF EXISTS \"${db}\" WITH (FORCE)" >/dev/null 2>&1 || true; }
trap cleanup EXIT
node dist/src/database/migrate.js
out=$(mktemp -d)
if npx --no-install typeorm migration:generate --check -d dist/src/database/cli-data-source.js "${out}/Drift"; then
  echo "Migrations match the entities."
else
  echo "Entities and migrations have drifted apart: generate a migration (see README)." >&2
  exit 1
fi
