#!/usr/bin/env node
// `npm start`: runs the API and the worker together in the foreground. Ctrl-C (SIGINT) or SIGTERM stops both;
// if either process exits, the other is stopped too and the exit code is passed on.
const { spawn } = require('child_process');
const path = require('path');

const root = path.join(__dirname, '..');
const children = [
  ['api', path.join(root, 'dist', 'src', 'main.js')],
  ['worker', path.join(root, 'dist', 'src', 'worker.js')],
].map(([name, entry]) => ({ name, proc: spawn(process.execPath, [entry], { cwd: root, stdio: 'inherit' }) }));

let stopping = false;
function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const { proc } of children) if (proc.exitCode === null) proc.kill(signal);
}

for (const { name, proc } of children) {
  proc.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`${name} exited (${signal ?? code}); stopping the others\n`);
    stopAll('SIGTERM');
    if (children.every((c) => c.proc.exitCode !== null || c.proc.signalCode !== null)) {
      process.exit(code ?? (signal ? 1 : 0));
    }
  });
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
