// node bench/cpuprofile-top.js FILE.cpuprofile [N]: heaviest functions by self time, and self time per package
// or source folder.
const fs = require('fs');
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const n = Number(process.argv[3] || 30);
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const self = new Map();
let total = 0;
p.samples.forEach((id, i) => {
  const f = byId.get(id).callFrame;
  const url = f.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
  const k = `${f.functionName || '(anon)'} ${url}:${f.lineNumber}`;
  self.set(k, (self.get(k) || 0) + p.timeDeltas[i]);
  total += p.timeDeltas[i];
});
const byFile = new Map();
for (const [k, v] of self) {
  const file = k.split(' ').slice(-1)[0].split(':')[0].split('/').slice(0, 2).join('/') || '(native)';
  byFile.set(file, (byFile.get(file) || 0) + v);
}
const pct = (v) => ((100 * v) / total).toFixed(1).padStart(5);
console.log('top functions (self %):');
[...self].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(pct(v), k));
console.log('by package/folder (self %):');
[...byFile].sort((a, b) => b[1] - a[1]).slice(0, 25).forEach(([k, v]) => console.log(pct(v), k));
