import { auth, bootstrapOrganizer } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Failed authentications are rate limited per client address (README "Security"; `AUTH_FAILURE_LIMIT`,
 * `AUTH_FAILURE_WINDOW_S`): past the limit a refused credential answers 429 with `Retry-After`; requests with a
 * valid credential are never throttled and do not count, nor do requests without credentials.
 */
describe('failed authentication rate limit', () => {
  let t: TestApp;
  let token: string;
  const URL = '/api/v1/organizers/org/';
  const INVALID = { detail: 'Invalid token.' };

  beforeAll(async () => {
    t = await startTestApp({ authFailureLimit: 3, authFailureWindowS: 3 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
  });

  afterAll(() => t?.close());

  const call = (authorization?: string) => {
    const req = t.http().get(URL);
    return authorization ? req.set('Authorization', authorization) : req;
  };

  it('answers 429 with Retry-After after the limit, serves valid tokens throughout, and forgets after the window', async () => {
    for (let i = 0; i < 5; i++) {
      const anonymous = await call();
      expect(anonymous.status).toBe(401);
      expect((await call(auth(token))).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      const res = await call(auth(`wrong${i}`));
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
      expect(res.headers['retry-after']).toBeUndefined();
    }
    const blocked = await call(auth('wrong-again'));
    expect(blocked.status).toBe(429);
    const wait = Number(blocked.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(3);
    expect(blocked.body).toEqual({ detail: `Request was throttled. Expected available in ${wait} seconds.` });
    expect((await call(`Bearer wrong-bearer`)).status).toBe(429);

    // A valid credential from the same address is served, and does not reset or extend the block.
    const ok = await call(auth(token));
    expect(ok.status).toBe(200);
    expect(ok.headers['retry-after']).toBeUndefined();
    expect((await call()).status).toBe(401);
    expect((await call(auth('still-wrong'))).status).toBe(429);

    await new Promise((r) => setTimeout(r, 3200));
    const later = await call(auth('wrong-after-window'));
    expect(later.status).toBe(401);
    expect(later.body).toEqual(INVALID);
  });

  it('counts deactivated tokens as failures, refused at once (no cache)', async () => {
    const fresh = await startTestApp({ authFailureLimit: 3, authFailureWindowS: 60 });
    try {
      const { token: admin } = await bootstrapOrganizer(fresh, 'org');
      const { token: second } = await bootstrapOrganizer(fresh, 'org');
      const get = (tok: string) => fresh.http().get(URL).set('Authorization', auth(tok));
      expect((await get(second)).status).toBe(200);
      await fresh.db.query(
        'UPDATE team_api_token SET active = false WHERE id = (SELECT max(id) FROM team_api_token)',
      );
      const refused = await get(second);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ detail: 'Token inactive or deleted.' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(second)).status);
      expect(statuses).toEqual([401, 401, 429]);
      expect((await get(admin)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
