import type { AddressInfo } from 'net';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { bootstrapOrganizer } from './factories';
import { startTestApp, type TestApp } from './harness';

/**
 * The interactive API page (`GET /api/v1/docs/`, README "API conventions") in a real headless
 * Chromium: a person opens the page, authorizes with a team token and runs `listOrganizers` with "Try it out";
 * the page shows the 200 answer with the organizer. Without authorization the same call shows 401.
 */
// A browser on a loaded 2-core machine: each step may take seconds; the whole flow stays far from this limit.
jest.setTimeout(180_000);

describe('API page in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    ({ token } = await bootstrapOrganizer(t, 'pagedemo', 'Page Demo Organizer'));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens the page, expands `listOrganizers`, runs it, and returns the live response's status and body text. */
  async function tryListOrganizers(authorization: string | null): Promise<{ status: string; body: string }> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${base}/api/v1/docs/`);
      await page.waitForSelector('.opblock');
      if (authorization) {
        await page.click('.auth-wrapper .authorize');
        const modal = page.locator('.modal-ux');
        // The team-token scheme (`token`, apiKey in the Authorization header); the device scheme and OAuth have their
        // own forms.
        const block = modal.locator('form').filter({ hasText: /^\s*token\s*\(apiKey\)/ });
        await block.locator('input[type=text]').fill(authorization);
        await block.locator('button.authorize').click();
        // Once authorized the block shows "Logout" instead of the input; the header's close button ends the dialog.
        await modal.locator('button', { hasText: 'Logout' }).first().waitFor();
        await modal.locator('button.close-modal').click();
      }
      const operation = page.locator('#operations-organizers-listOrganizers');
      await operation.locator('.opblock-summary').click();
      // The page opens operations in "Try it out" mode (tryItOutEnabled); the button then reads "Cancel".
      const tryOut = operation.locator('button.try-out__btn', { hasText: 'Try it out' });
      if (await tryOut.isVisible()) await tryOut.click();
      await operation.locator('button.execute').click();
      const live = operation.locator('.live-responses-table .response');
      await live.first().waitFor();
      const status = (await live.locator('.response-col_status').first().innerText()).trim();
      const body = await live.locator('.response-col_description').first().innerText();
      return { status, body };
    } finally {
      await context.close();
    }
  }

  it('authorizes with a team token and runs a call from the page', async () => {
    const { status, body } = await tryListOrganizers(`Token ${token}`);
    expect(status).toBe('200');
    expect(body).toContain('"slug": "pagedemo"');
    expect(body).toContain('Page Demo Organizer');
  });

  it('shows the 401 answer of a call without authorization', async () => {
    const { status, body } = await tryListOrganizers(null);
    expect(status).toBe('401');
    expect(body).toContain('detail');
  });
});
