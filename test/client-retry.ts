import type { Response } from 'supertest';

/**
 * Sends a request as a well-behaved client does under overload: an answer 503 (no database connection free in
 * time) or 409 with `Retry-After` (a row lock not had in time) is sent again after a random pause growing with each attempt (up to 3 s), since
 * the server guarantees that such a request wrote nothing. Concurrency tests fire hundreds of requests at once on
 * a busy 2-core machine, where some of these answers are normal; what they assert (no overselling) must hold over
 * the final answers. Gives up after `attempts` and returns the last answer.
 */
export async function retryingBusy(send: () => Promise<Response>, attempts = 30): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await send();
    const busy = res.status === 503 || (res.status === 409 && res.headers['retry-after'] !== undefined);
    if (!busy || attempt >= attempts) return res;
    const pause = Math.min(2000, 100 * 2 ** attempt);
    await new Promise((r) => setTimeout(r, pause / 2 + Math.random() * pause));
  }
}
