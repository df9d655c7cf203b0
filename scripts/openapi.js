#!/usr/bin/env node
// Writes the served OpenAPI document to openapi.json (`npm run openapi:write`), or with --check fails when the
// committed file differs from what the code generates (`npm run openapi:check`, a CI step). Needs the build
// (dist/) and a reachable PostgreSQL server (the application boots; no table is read).
const { readFileSync, writeFileSync } = require('fs');
const { join } = require('path');

const ROOT = join(__dirname, '..');
const FILE = join(ROOT, 'openapi.json');
const server = (process.env.TEST_DATABASE_SERVER || 'postgres://postgres:postgres@127.0.0.1:5432').replace(
  /\/+$/,
  '',
);
process.env.DATABASE_URL = process.env.OPENAPI_DATABASE_URL || `${server}/postgres`;

/** JSON with object keys sorted (arrays keep their order): one text per document, whatever the build order. */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted(value[k])]),
    );
  }
  return value;
}

async function main() {
  const { createApiApp } = require(join(ROOT, 'dist/src/app.factory'));
  const { OpenApiController } = require(join(ROOT, 'dist/src/common/http/openapi'));
  const app = await createApiApp({ logLevel: 'error' });
  const text = `${JSON.stringify(sorted(app.get(OpenApiController).getOpenApiDocument()), null, 2)}\n`;
  await app.close();
  if (!process.argv.includes('--check')) {
    writeFileSync(FILE, text);
    console.log(`wrote ${FILE}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(FILE, 'utf8');
  } catch {
    committed = '';
  }
  if (committed === text) {
    console.log('openapi.json matches the code.');
    return;
  }
  const a = committed.split('\n');
  const b = text.split('\n');
  const first = a.findIndex((line, i) => line !== b[i]);
  console.error(
    'openapi.json differs from what the code generates: run `npm run openapi:write` and review the diff.',
  );
  console.error(`first difference at line ${first + 1}:\n- ${a[first] ?? ''}\n+ ${b[first] ?? ''}`);
  process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(`openapi: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
