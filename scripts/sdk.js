#!/usr/bin/env node
// Generates the TypeScript SDK's types from openapi.json (`npm run sdk:generate`): sdk/typescript/src/schema.ts
// by openapi-typescript, src/query-style.ts (the query parameters whose lists are sent comma-separated), and the
// SDK package's version from the document's info.version. With --check
// (`npm run sdk:check`, a CI step) it writes nothing and fails when the committed files differ from what
// openapi.json generates. Needs no build and no database: it reads only openapi.json.
const { execFileSync } = require('child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');

const ROOT = join(__dirname, '..');
const DOCUMENT = join(ROOT, 'openapi.json');
const SDK = join(ROOT, 'sdk/typescript');
const TYPES = join(SDK, 'src/schema.ts');
const PACKAGE = join(SDK, 'package.json');
const QUERY_STYLE = join(SDK, 'src/query-style.ts');
const CLI = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');

/** The types openapi-typescript generates from openapi.json, as text. */
function generatedTypes() {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-'));
  try {
    const out = join(dir, 'schema.ts');
    // Its own lint findings (stderr) are shown only when it fails; `npm run openapi:lint` is the gate for those.
    try {
      execFileSync(process.execPath, [CLI, DOCUMENT, '--output', out], { cwd: ROOT, stdio: 'pipe' });
    } catch (err) {
      process.stderr.write(String(err.stderr ?? err.message));
      throw new Error('openapi-typescript failed');
    }
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * src/query-style.ts: the names of the query parameters documented `explode: false` (a list sent as
 * `name=a,b`); the other lists repeat the name (`name=a&name=b`). One style per name across the document.
 */
function queryStyleText(document) {
  const styles = new Map();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const p of operation.parameters ?? []) {
        if (p.in !== 'query' || p.schema?.type !== 'array') continue;
        const comma = p.explode === false;
        if (styles.has(p.name) && styles.get(p.name) !== comma)
          throw new Error(`query parameter ${p.name} has two list styles (${method.toUpperCase()} ${path})`);
        styles.set(p.name, comma);
      }
    }
  }
  const names = [...styles]
    .filter(([, comma]) => comma)
    .map(([name]) => name)
    .sort();
  return [
    '// Generated from openapi.json by `npm run sdk:generate`; do not edit.',
    '',
    '/** Query parameters whose lists are sent comma-separated (`style: form`, `explode: false`). */',
    'export const COMMA_SEPARATED_QUERY: ReadonlySet<string> = new Set([',
    ...names.map((name) => `  '${name}',`),
    ']);',
    '',
  ].join('\n');
}

/** The SDK's package.json text with `version` set to the document's info.version. */
function packageText(version) {
  const pkg = JSON.parse(readFileSync(PACKAGE, 'utf8'));
  return `${JSON.stringify({ ...pkg, version }, null, 2)}\n`;
}

function main() {
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8'));
  const version = document.info.version;
  const files = [
    [TYPES, generatedTypes()],
    [QUERY_STYLE, queryStyleText(document)],
    [PACKAGE, packageText(version)],
  ];
  if (!process.argv.includes('--check')) {
    for (const [file, text] of files) writeFileSync(file, text);
    console.log(`wrote ${files.map(([file]) => file).join(', ')} (version ${version})`);
    return;
  }
  const stale = files.filter(([file, text]) => {
    try {
      return readFileSync(file, 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (stale.length === 0) {
    console.log('The SDK matches openapi.json.');
    return;
  }
  for (const [file] of stale) console.error(`${file} differs from what openapi.json generates.`);
  console.error('Run `npm run sdk:generate` and review the diff.');
  process.exitCode = 1;
}

main();
