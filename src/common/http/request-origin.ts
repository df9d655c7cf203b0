import { AsyncLocalStorage } from 'async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { PROBE_HEADER, probeOrigin } from './resource-probe';

const origins = new AsyncLocalStorage<string>();

/**
 * Express middleware: remembers the base URL of the current request for {@link absoluteUrl}, so presenters can
 * write absolute URLs (pretix's `reverse(..., request=request)`, e.g. ticket `downloads`) without the request being
 * passed down to them: `apiUrl` (`API_URL`) when configured, else the request's origin (`<protocol>://<host>`, as
 * `trust proxy` resolves them, like the list envelope's links). A resource probe of a conditional write (its
 * loopback GET, `resource-probe.ts`) gets the origin of the write it stands for.
 */
export function requestOrigin(apiUrl: string): (req: Request, res: Response, next: NextFunction) => void {
  return (req, _res, next) =>
    origins.run(
      apiUrl ||
        probeOrigin(req.headers[PROBE_HEADER]) ||
        `${req.protocol}://${req.get('host') ?? 'localhost'}`,
      next,
    );
}

/** `path` (root-relative) made absolute with the current request's origin; unchanged outside a request (worker). */
export function absoluteUrl(path: string): string {
  const origin = origins.getStore();
  return origin ? `${origin}${path}` : path;
}
