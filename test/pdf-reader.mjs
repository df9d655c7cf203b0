// Reads a PDF back for the e2e tests with `pdfjs-dist` (ESM only, so it runs here, in a plain Node process, not
// inside jest's module system) and decodes the QR codes of its images with `jsqr`; no system binaries.
// Usage: node test/pdf-reader.mjs <file.pdf>; prints {"pages": [{"text": "...", "lines": "...", "qr": [...]}]}.
// Text items of a page are joined with single spaces (`text`), or with a space and a newline where pdf.js marks the
// end of a line (`lines`); images are read from the page's operator list
// (paintImageXObject), as RGBA pixels.
import { createRequire } from 'module';
import { readFileSync } from 'fs';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';

const require = createRequire(import.meta.url);
const jsQR = require('jsqr');
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
const fonts = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

/** RGBA pixels of a pdf.js image object (kinds: 1 gray 1 bpp, 2 RGB, 3 RGBA). */
function rgba(img) {
  const { width, height, kind, data } = img;
  if (kind === 3) return new Uint8ClampedArray(data);
  const out = new Uint8ClampedArray(width * height * 4);
  if (kind === 2) {
    for (let i = 0, j = 0; i < width * height; i++, j += 3) out.set([data[j], data[j + 1], data[j + 2], 255], i * 4);
    return out;
  }
  const rowBytes = (width + 7) >> 3;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const bit = (data[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
      const v = bit ? 255 : 0;
      out.set([v, v, v, 255], (y * width + x) * 4);
    }
  return out;
}

const file = process.argv[2] ?? fileURLToPath(import.meta.url);
const doc = await pdfjs.getDocument({
  data: new Uint8Array(readFileSync(file)),
  isOffscreenCanvasSupported: false,
  standardFontDataUrl: fonts,
  verbosity: 0,
}).promise;
const pages = [];
for (let n = 1; n <= doc.numPages; n++) {
  const page = await doc.getPage(n);
  const items = (await page.getTextContent()).items;
  const text = items.map((i) => i.str).join(' ');
  const lines = items.map((i) => i.str + (i.hasEOL ? '\n' : ' ')).join('');
  const ops = await page.getOperatorList();
  const qr = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== pdfjs.OPS.paintImageXObject) continue;
    const name = ops.argsArray[i][0];
    const img = await new Promise((resolve) => page.objs.get(name, resolve));
    const code = jsQR(rgba(img), img.width, img.height);
    if (code) qr.push(code.data);
  }
  pages.push({ text, lines, qr });
}
process.stdout.write(JSON.stringify({ pages }));
