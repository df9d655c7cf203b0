import { spawnSync } from 'child_process';

/** Whether poppler-utils' `pdftotext` and `pdfinfo` run on this machine (Debian package `poppler-utils`). */
function popplerAvailable(): boolean {
  return ['pdftotext', 'pdfinfo'].every((tool) => spawnSync(tool, ['-v']).error === undefined);
}

/**
 * `describe` for a test that reads PDFs back with poppler-utils: skipped with one warning line where the tools are
 * missing (a fresh machine with only what the README lists), unless `REQUIRE_BROWSER=1` (set by `.ci/run`, which
 * installs them together with Chromium), where the test then fails naming the missing binary.
 */
export const describeWithPoppler: jest.Describe =
  popplerAvailable() || process.env.REQUIRE_BROWSER === '1'
    ? describe
    : (() => {
        console.warn('pdftotext/pdfinfo (Debian package poppler-utils) not found: invoice PDF tests skipped');
        return describe.skip;
      })();
