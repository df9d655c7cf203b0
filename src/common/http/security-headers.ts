import helmet from 'helmet';

/**
 * Security headers of every API answer (issue 7 "Abuse"), with `helmet`: `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY` and `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` (JSON is never
 * to be framed or run), `Referrer-Policy: no-referrer`, plus helmet's other defaults (HSTS, no DNS prefetch, …).
 * A future HTML page (API docs, OAuth) sets its own stricter-or-looser policy on its routes.
 */
export function securityHeaders() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
