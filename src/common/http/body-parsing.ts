import { randomUUID } from 'crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorAt, UNPAIRED_SURROGATE_MESSAGE, unpairedSurrogatePath } from './body-strings';

/** Gives every request an id (`X-Request-Id`, taken from the client when sane) for logs and 500 answers. */
export function requestId(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  req.id = typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  next();
}

/** Deepest nesting of objects and arrays a JSON body may have (the top-level value is level 1). */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_DETAIL = `JSON nested deeper than ${MAX_JSON_DEPTH} levels.`;

/** Object keys no body may contain: they name the prototype machinery, never data. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether the JSON text in `buf` nests objects/arrays deeper than `limit`, by one pass over the bytes outside
 * string literals (no parsing, no recursion; UTF-8 continuation bytes never equal an ASCII bracket). Malformed
 * text is left to the parser.
 */
export function jsonDeeperThan(buf: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/**
 * The path (`[0].tag`) of the first object in `body` that has a key of {@link FORBIDDEN_KEYS}, with that key;
 * null when there is none. Walks with an explicit stack (bodies are at most {@link MAX_JSON_DEPTH} deep anyway)
 * and reads only own keys, so no prototype is ever touched.
 */
export function forbiddenKey(body: unknown): { path: string; key: string } | null {
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
      continue;
    }
    const keys = Object.keys(value);
    const bad = keys.find((k) => FORBIDDEN_KEYS.has(k));
    if (bad !== undefined) return { path, key: bad };
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      stack.push([(value as Record<string, unknown>)[k], path === '' ? k : `${path}.${k}`]);
    }
  }
  return null;
}

/** An error the parsers raise: answered with its status and `{"detail"}` by {@link bodyParsers}' handler. */
class BodyRefused extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Keeps the raw bytes (for the idempotency fingerprint) and refuses JSON nested too deeply before it is parsed. */
function verifyJson(req: Request & { rawBody?: Buffer }, _res: Response, buf: Buffer): void {
  if (jsonDeeperThan(buf, MAX_JSON_DEPTH)) throw new BodyRefused(400, TOO_DEEP_DETAIL);
  req.rawBody = buf;
}

/** An error answered with its status and a field-error body (`{"field": ["message"]}`). */
class BodyFieldRefused extends Error {
  constructor(readonly body: Record<string, unknown>) {
    super('invalid field in body');
  }
}

/** Refuses a parsed body with a string or key holding an unpaired surrogate: 400 naming the field. */
function refuseUnpairedSurrogates(req: Request, _res: Response, next: NextFunction): void {
  const path = unpairedSurrogatePath(req.body);
  if (!path) return next();
  next(new BodyFieldRefused(errorAt(path, UNPAIRED_SURROGATE_MESSAGE)));
}

/** Refuses a parsed body holding a prototype key (`{"tag": {"constructor": …}}`) before any handler sees it. */
function refuseForbiddenKeys(req: Request, _res: Response, next: NextFunction): void {
  const found = forbiddenKey(req.body);
  if (!found) return next();
  const at = found.path === '' ? '' : ` (at ${found.path})`;
  next(new BodyRefused(400, `JSON object key "${found.key}" is not allowed${at}.`));
}

/** The path of `POST /api/v1/upload`, whose body is the raw file (any content type, read as bytes). */
export const UPLOAD_PATH = '/api/v1/upload';
/**
 * Largest upload in bytes (10 MiB, pretix's default `FILE_UPLOAD_MAX_SIZE_OTHER`); a larger body answers 413
 * `{"detail": "Request body too large."}` before it is read to the end.
 */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Body parsers: the raw body of {@link UPLOAD_PATH} (at most {@link UPLOAD_MAX_BYTES}), JSON (spec "Conventions" 2)
 * and form-encoded (OAuth token/revoke). A malformed body answers
 * 400 `{"detail": "JSON parse error - ..."}` (compat §1.5), never a 500; JSON nested deeper than
 * {@link MAX_JSON_DEPTH} levels answers 400 {@link TOO_DEEP_DETAIL} before it is parsed; an object key
 * `__proto__`, `constructor` or `prototype` anywhere in a body answers 400 naming the key and where it is; a
 * string or key holding an unpaired UTF-16 surrogate (`"\ud800"`) answers 400 naming the field (README
 * "Security").
 */
export function bodyParsers() {
  return [
    express.raw({
      type: (req) => (req.url ?? '').split('?')[0] === UPLOAD_PATH,
      limit: UPLOAD_MAX_BYTES,
      verify: (req: Request & { rawBody?: Buffer }, _res: Response, buf: Buffer) => {
        req.rawBody = buf;
      },
    }),
    express.json({ limit: '5mb', type: ['application/json', 'application/*+json'], verify: verifyJson }),
    express.urlencoded({
      extended: false,
      limit: '1mb',
      verify: (req: Request & { rawBody?: Buffer }, _res: Response, buf: Buffer) => {
        req.rawBody = buf;
      },
    }),
    refuseForbiddenKeys,
    refuseUnpairedSurrogates,
    (err: unknown, _req: Request, res: Response, next: NextFunction): void => {
      if (!err) return next();
      const e = err as { type?: string; message?: string; status?: number; detail?: string };
      if (err instanceof BodyFieldRefused) {
        res.status(400).json(err.body);
      } else if (err instanceof BodyRefused) {
        res.status(err.status).json({ detail: err.detail });
      } else if (e.type === 'entity.parse.failed') {
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
