import { randomUUID } from 'crypto';
import express, { type NextFunction, type Request, type Response } from 'express';

/** Gives every request an id (`X-Request-Id`, taken from the client when sane) for logs and 500 answers. */
export function requestId(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  req.id = typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  next();
}

/**
 * Body parsers: JSON (spec "Conventions" 2) and form-encoded (OAuth token/revoke). A malformed body answers
 * 400 `{"detail": "JSON parse error - ..."}` (compat §1.5), never a 500.
 */
export function bodyParsers() {
  return [
    express.json({
      limit: '5mb',
      type: ['application/json', 'application/*+json'],
      // The raw bytes are kept for the idempotency fingerprint.
      verify: (req: Request & { rawBody?: Buffer }, _res: Response, buf: Buffer) => {
        req.rawBody = buf;
      },
    }),
    express.urlencoded({
      extended: false,
      limit: '1mb',
      verify: (req: Request & { rawBody?: Buffer }, _res: Response, buf: Buffer) => {
        req.rawBody = buf;
      },
    }),
    (err: unknown, _req: Request, res: Response, next: NextFunction): void => {
      if (!err) return next();
      const e = err as { type?: string; message?: string; status?: number };
      if (e.type === 'entity.parse.failed') {
        res.status(400).json({ detail: `JSON parse error - ${e.message ?? 'invalid JSON'}` });
      } else if (e.type === 'entity.too.large') {
        res.status(413).json({ detail: 'Request body too large.' });
      } else if (e.status && e.status >= 400 && e.status < 500) {
        res.status(e.status).json({ detail: e.message ?? 'Bad request.' });
      } else {
        next(err);
      }
    },
  ];
}
