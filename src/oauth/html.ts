import { createHash } from 'crypto';
import type { Response } from 'express';

/** The pages' only stylesheet; allowed by its hash in the CSP (no inline script, no external resource). */
const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.6rem 0}input[type=text],input[type=email],input[type=password],textarea{width:100%}
.error{color:#a00}table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left}
code{background:#f3f3f3;padding:0 .2rem}form.inline{display:inline}`;
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

/** OpenAPI content of an HTML page. */
export const HTML = { 'text/html': { schema: { type: 'string' as const } } };

/** HTML-escapes text for element content and attribute values. */
export function esc(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A hidden input. */
export const hidden = (name: string, value: string | undefined): string =>
  value === undefined ? '' : `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

/**
 * Sends a server-rendered page (no JavaScript) with a strict Content-Security-Policy: nothing loads, only the
 * page's own stylesheet applies, forms post to this service (and, on the consent page, to the client's redirect
 * origin, which the post redirects to), and no framing. `Cache-Control: no-store`: pages carry CSRF tokens.
 */
export function sendPage(
  res: Response,
  status: number,
  title: string,
  body: string,
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
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>` +
        `<body><h1>${esc(title)}</h1>${body}</body></html>`,
    );
}
