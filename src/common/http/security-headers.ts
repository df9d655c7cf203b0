import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

const strict = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
};

/**
 * Security headers of every API answer (README "Configuration"), with `helmet`: `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY` and `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` (JSON is never
 * to be framed or run), `Referrer-Policy: no-referrer`, plus helmet's other defaults (HSTS, no DNS prefetch, …).
 * The API page (`/api/v1/docs/`, Swagger UI) gets a policy that lets its own scripts, styles and images load
 * (`'self'` only; inline styles, which Swagger UI sets) and still forbids framing.
 */
export function securityHeaders() {
  const api = helmet(strict);
  const page = helmet({
    ...strict,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  return (req: Request, res: Response, next: NextFunction): void =>
    req.path.startsWith('/api/v1/docs') ? page(req, res, next) : api(req, res, next);
}
