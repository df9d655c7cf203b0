import { request as httpRequest, RequestOptions } from 'http';
import { request as httpsRequest } from 'https';
import { guardedLookup, isPrivateUrl, PRIVATE_TARGET, PrivateTargetError } from './webhook-target';

/**
 * The one reason logged for an attempt that got no HTTP answer (refused, reset, timed out, DNS or TLS failure):
 * the delivery log must not tell these apart, or it becomes a port scanner (README "Security", "Webhooks").
 */
export const CONNECTION_FAILED = 'Connection failed.';

/** The outcome of one POST: the HTTP status (null without an answer), an error text, the duration. */
export interface PostOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The target was refused by the SSRF guard (no request was sent). */
  refused: boolean;
}

/** How much of an answer is read before the connection is dropped (the body is not used). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url` with `headers` (node's http client: redirects are never followed; Basic-auth credentials
 * in the URL are sent). With `allowPrivate` false, a private target is refused, literally or after DNS
 * resolution (the address connected to is the one checked). The whole exchange is bounded by `timeoutMs`.
 * Without an HTTP answer the error is always {@link CONNECTION_FAILED}; with one, `HTTP <status>` for non-2xx.
 * Never throws.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<PostOutcome> {
  const started = Date.now();
  const done = (status: number | null, error: string | null, refused = false): PostOutcome => ({
    status,
    error,
    durationMs: Date.now() - started,
    refused,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, 'Invalid target URL.', true));
  }
  if (!allowPrivate && isPrivateUrl(target)) return Promise.resolve(done(null, PRIVATE_TARGET, true));
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    let answered: number | null = null;
    const answer = (status: number | null) =>
      done(status, status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`);
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      ...(allowPrivate ? {} : { lookup: guardedLookup }),
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, options, (res) => {
      const status = res.statusCode ?? null;
      answered = status;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const end = () => finish(answer(status));
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(answered === null ? done(null, CONNECTION_FAILED) : answer(answered));
    }, timeoutMs);
    req.on('error', (err) => {
      if (err instanceof PrivateTargetError) finish(done(null, PRIVATE_TARGET, true));
      else finish(done(null, CONNECTION_FAILED));
    });
    req.end(body);
  });
}
