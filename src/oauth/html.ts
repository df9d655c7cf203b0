import { createHash } from 'crypto';
import type { Response } from 'express';
import { PageName, PageModels, renderPage } from './page-templates';

/** The pages' only stylesheet; allowed by its hash in the CSP (no inline script, no external resource). */
const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.6rem 0}input[type=text],input[type=email],input[type=password],textarea{width:100%}
.error{color:#a00}table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left}
code{background:#f3f3f3;padding:0 .2rem}form.inline{display:inline}`;
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

/** OpenAPI content of an HTML page. */
export const HTML = { 'text/html': { schema: { type: 'string' as const } } };

/**
 * Sends a server-rendered page (no JavaScript; the template `page` of `templates/` with `model`, inside the
 * layout titled `title`) with a strict Content-Security-Policy: nothing loads, only the page's own stylesheet
 * applies, forms post to this service (and, on the consent page, to the client's redirect origin, which the post
 * redirects to), and no framing. `Cache-Control: no-store`: pages carry CSRF tokens.
 */
export function sendPage<P extends PageName>(
  res: Response,
  status: number,
  title: string,
  page: P,
  model: PageModels[P],
  formTargets: string[] = [],
): void {
  const formAction = ["'self'", ...formTargets].join(' ');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action ${formAction}; ` +
      `frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader('Cache-Control', 'no-store');
  res
    .status(status)
    .type('html')
    .send(renderPage(page, title, STYLE, model));
}

/** Sends a page that only shows `message` as an error (400, 403, 404, 429 answers of the pages). */
export function sendMessage(res: Response, status: number, title: string, message: string): void {
  sendPage(res, status, title, 'message', { message });
}
