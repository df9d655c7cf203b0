import { existsSync } from 'fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (package `chromium`, installed by `.ci/run`); `CHROMIUM_PATH` overrides. Nothing is downloaded:
 * playwright-core drives the system browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A headless Chromium for browser tests (one per test file; close it in `afterAll`).
 * @throws Error naming the missing binary, so a machine without Chromium fails clearly rather than timing out
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Containers run as root without a user namespace sandbox; /dev/shm may be small.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/**
 * `describe` for a browser test that may stay out of a run on a machine without Chromium (README "Configuration"
 * `REQUIRE_BROWSER`): skipped, with a warning, when the binary is missing, unless `REQUIRE_BROWSER=1` (set by
 * `.ci/run`, which installs Chromium), where {@link launchBrowser} then fails naming the missing binary.
 */
export const describeWithBrowser: jest.Describe =
  existsSync(CHROMIUM_PATH) || process.env.REQUIRE_BROWSER === '1'
    ? describe
    : (() => {
        console.warn(`Chromium not found at ${CHROMIUM_PATH}: browser tests skipped`);
        return describe.skip;
      })();
