import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { createHash } from 'crypto';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

/**
 * The strong entity tag of a JSON answer (README "Sync and concurrency", "ETags"): `"` + base64url of the SHA-256
 * of the exact JSON text sent + `"` (45 characters). Any change of any field of the answer changes it; a change of
 * a row the answer does not show does not.
 */
export function entityTag(json: string | Buffer): string {
  return `"${createHash('sha256').update(json).digest('base64url')}"`;
}

/** One entity tag of an `If-Match`/`If-None-Match` list: its opaque part (quotes included) and whether `W/`. */
interface ListedTag {
  tag: string;
  weak: boolean;
}

/**
 * The tags of an `If-Match`/`If-None-Match` header (RFC 9110 §8.8.3, §13.1.1/2): `'*'`, or the listed tags
 * (comma-separated, each `"…"` or `W/"…"`; anything else is ignored), or null when the header is absent or
 * empty. Repeated headers arrive joined by commas.
 */
export function parseTagList(header: string | string[] | undefined): '*' | ListedTag[] | null {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value.trim() === '') return null;
  if (value.trim() === '*') return '*';
  const tags: ListedTag[] = [];
  for (const m of value.matchAll(/(W\/)?("[^"]*")/g)) tags.push({ tag: m[2], weak: m[1] !== undefined });
  return tags;
}

/**
 * `If-None-Match` (weak comparison: `W/` is ignored on both sides): whether `current` is listed, or the header is
 * `*` (the representation exists). False when the header is absent.
 */
export function noneMatchHits(header: string | string[] | undefined, current: string): boolean {
  const tags = parseTagList(header);
  if (tags === null) return false;
  if (tags === '*') return true;
  const bare = current.replace(/^W\//, '');
  return tags.some((t) => t.tag === bare);
}

/**
 * `If-Match` (strong comparison: a `W/` tag never matches): whether `current` (null: no current representation)
 * satisfies the header. `*` matches any existing representation. True when the header is absent.
 */
export function ifMatchHolds(header: string | string[] | undefined, current: string | null): boolean {
  const tags = parseTagList(header);
  if (tags === null) return true;
  if (current === null) return false;
  if (tags === '*') return true;
  return tags.some((t) => !t.weak && t.tag === current);
}

/** Whether an answer's `Content-Type` is JSON (`application/json`, with or without parameters). */
const isJson = (contentType: number | string | string[] | undefined): boolean =>
  typeof contentType === 'string' && /^application\/json\b/i.test(contentType);

/**
 * Global interceptor (README "Sync and concurrency", "ETags"): every GET/HEAD that answers 200 with a JSON body
 * (detail or list, rendered by `res.json` or sent as ready JSON text by the rendered-list cache) gets the strong
 * `ETag` of the exact bytes sent ({@link entityTag}); when `If-None-Match` lists it (or is `*`), the answer is 304
 * with no body, with the `ETag` and the other headers already set (`Last-Modified`, `Cache-Control`). It hooks
 * `res.send`, which sees the final text: answers of another type (PDFs, files, images), streams (`…/stream/`
 * server-sent events, piped files) and error answers are not touched, not buffered. No SQL: the cost is one
 * SHA-256 of the body.
 */
@Injectable()
export class EntityTagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    const send = res.send.bind(res);
    res.send = ((body?: unknown) => {
      const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : undefined;
      if (text === undefined || res.statusCode !== 200 || !isJson(res.getHeader('Content-Type'))) {
        return send(body);
      }
      const tag = entityTag(text);
      res.setHeader('ETag', tag);
      // Express drops the body and its headers of a 304 itself.
      if (noneMatchHits(req.headers['if-none-match'], tag)) res.status(304);
      return send(text);
    }) as Response['send'];
    return next.handle();
  }
}
