#!/usr/bin/env node
// Builds the project when dist/ is missing or older than any source file, so `npm start`, `npm run migrate` and
// `npm run cli` work on a fresh clone. Build output goes to stderr: stdout stays clean for CLI JSON.
const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const marker = path.join(root, 'dist', 'src', 'main.js');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else if (/\.(ts|sql|hbs)$/.test(entry.name)) latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

const sourceTime = Math.max(newest(path.join(root, 'src')), newest(path.join(root, 'migrations')));
const builtTime = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
if (builtTime < sourceTime) {
  process.stderr.write('Building (npm run build)...\n');
  execSync('npx nest build', { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
}
