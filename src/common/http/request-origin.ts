import { AsyncLocalStorage } from 'async_hooks';
import type { NextFunction, Request, Response } from 'express';

const origins = new AsyncLocalStorage<string>();

/**
 * Express middleware: remembers the origin (`<protocol>://<host>`, as `trust proxy` resolves them, like the list
 * envelope's links) of the current request for {@link absoluteUrl}, so presenters can write absolute URLs (pretix's
 * `reverse(..., request=request)`, e.g. ticket `downloads`) without the request being passed down to them.
 */
export function requestOrigin(req: Request, _res: Response, next: NextFunction): void {
  origins.run(`${req.protocol}://${req.get('host') ?? 'localhost'}`, next);
}

/** `path` (root-relative) made absolute with the current request's origin; unchanged outside a request (worker). */
export function absoluteUrl(path: string): string {
  const origin = origins.getStore();
  return origin ? `${origin}${path}` : path;
}
