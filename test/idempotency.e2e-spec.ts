import { hashToken } from '../src/auth/credentials.service';
import { idempotencyLockKey } from '../src/common/http/idempotency-locks';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** X-Idempotency-Key on writes (compat §1.8, with 422 for a reused key on a different request). */
describe('idempotency keys', () => {
  let t: TestApp;
  let token: string;
  const events = '/api/v1/organizers/org/events/';
  const body = (slug: string) => ({ name: 'Conf', slug, currency: 'EUR', date_from: '2030-01-01T10:00:00Z' });

  beforeAll(async () => {
    t = await startTestApp({ lockTimeoutMs: 300 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
  });
  afterAll(() => t.close());

  const post = (key: string | null, payload: object, credential = token) => {
    const req = t.http().post(events).set('Authorization', auth(credential));
    if (key !== null) req.set('X-Idempotency-Key', key);
    return req.send(payload);
  };

  it('replays the first response byte for byte, even when repeating would now fail', async () => {
    const first = await post('key-1', body('idem1'));
    expect(first.status).toBe(201);
    const again = await post('key-1', body('idem1'));
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    const rows: { n: string }[] = await t.db.query("SELECT count(*) AS n FROM event WHERE slug = 'idem1'");
    expect(rows[0].n).toBe('1');
  });

  it('executes a request with another key (here: a duplicate slug answers 400)', async () => {
    const res = await post('key-2', body('idem1'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ slug: ['This slug has already been used for a different event.'] });
  });

  it('replays stored errors too', async () => {
    const first = await post('key-3', { name: 'x' });
    expect(first.status).toBe(400);
    const again = await post('key-3', { name: 'x' });
    expect(again.status).toBe(400);
    expect(again.text).toBe(first.text);
  });

  it('answers 422 when the key is reused for a different body, path or method', async () => {
    await post('key-4', body('idem4')).expect(201);
    const otherBody = await post('key-4', body('idem4b'));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.detail).toMatch(/different request/);
    const otherPath = await t
      .http()
      .patch(`${events}idem4/`)
      .set('Authorization', auth(token))
      .set('X-Idempotency-Key', 'key-4')
      .send(body('idem4'));
    expect(otherPath.status).toBe(422);
    const rows: { n: string }[] = await t.db.query("SELECT count(*) AS n FROM event WHERE slug = 'idem4b'");
    expect(rows[0].n).toBe('0');
  });

  it('scopes keys per credential', async () => {
    const other = await teamToken(t, 'org', {
      allEvents: true,
      organizerPermissions: ['organizer.events:create'],
    });
    await post('key-5', body('idem5')).expect(201);
    const res = await post('key-5', body('idem5'), other);
    expect(res.status).toBe(400); // executed afresh: the slug exists now
  });

  it('ignores the key on GET', async () => {
    const a = await t
      .http()
      .get(events)
      .set('Authorization', auth(token))
      .set('X-Idempotency-Key', 'key-get');
    await createEvent(t, token, 'org', { slug: 'idem-get' });
    const b = await t
      .http()
      .get(events)
      .set('Authorization', auth(token))
      .set('X-Idempotency-Key', 'key-get');
    expect(b.body.count).toBe(a.body.count + 1);
  });

  it('answers 409 with Retry-After while the first request with the key is still running', async () => {
    // "Running" = the record's advisory lock is held by the live session of the process serving it.
    const [{ id }]: { id: string }[] = await t.db.query(
      `INSERT INTO idempotency_record (credential_hash, key, fingerprint, status, expires)
       VALUES ($1, 'key-6', repeat('0', 64), NULL, now() + interval '1 hour') RETURNING id::text AS id`,
      [hashToken(`Token ${token}`)],
    );
    const owner = t.db.createQueryRunner();
    await owner.connect();
    try {
      await owner.query('SELECT pg_advisory_lock($1::bigint)', [idempotencyLockKey(id)]);
      const res = await post('key-6', body('idem6'));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'Concurrent request with idempotency key.' });
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await owner.release(); // the owner's session ends: its lock with it
    }
  });

  it('does not store a 409, so the same key can be retried', async () => {
    await createEvent(t, token, 'org', { slug: 'locked' });
    const runner = t.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query("SELECT id FROM event WHERE slug = 'locked' FOR UPDATE");
      const blocked = await t
        .http()
        .patch(`${events}locked/`)
        .set('Authorization', auth(token))
        .set('X-Idempotency-Key', 'key-7')
        .send({ location: 'Berlin' });
      expect(blocked.status).toBe(409);
      expect(blocked.headers['retry-after']).toBe('5');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const retried = await t
      .http()
      .patch(`${events}locked/`)
      .set('Authorization', auth(token))
      .set('X-Idempotency-Key', 'key-7')
      .send({ location: 'Berlin' });
    expect(retried.status).toBe(200);
    expect(retried.body.location).toEqual({ en: 'Berlin' });
  });

  it('gives expired keys a fresh start', async () => {
    await post('key-8', body('idem8')).expect(201);
    await t.db.query(
      "UPDATE idempotency_record SET expires = now() - interval '1 second' WHERE key = 'key-8'",
    );
    const res = await post('key-8', body('idem8'));
    expect(res.status).toBe(400); // executed again
  });
});
