import { ApiProcess, startApiProcess, stopAllApis } from './api-process';
import { auth, bootstrapOrganizer } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Structured logs of the real API process (README "Configuration"): one JSON line per request with method,
 * route, status, duration, request id and credential id, never the token; the request id in `X-Request-Id` and in
 * every line logged while the request ran (errors of the exception filter included).
 */
describe('Request logs', () => {
  let t: TestApp;
  let api: ApiProcess;
  let token: string;
  let teamId: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, teamId } = await bootstrapOrganizer(t, 'logs'));
    api = await startApiProcess({
      DATABASE_URL: (t.db.options as { url: string }).url,
      LOG_LEVEL: 'log',
    });
  });
  afterAll(async () => {
    await stopAllApis();
    await t?.close();
  });

  const linesOf = (requestId: string) => api.jsonLines().filter((l) => l.request_id === requestId);
  const waitForLine = async (requestId: string, msg: string) => {
    for (let i = 0; i < 50; i++) {
      const line = linesOf(requestId).find((l) => l.msg === msg);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no "${msg}" line for ${requestId}:\n${api.output()}`);
  };

  it('logs one JSON line per request with route, status, duration, request id and credential, never the token', async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/organizers/logs/`, {
      headers: { Authorization: auth(token), 'X-Request-Id': 'client-req-42' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('client-req-42');
    const line = await waitForLine('client-req-42', 'request completed');
    expect(line).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/api/v1/organizers/:organizer/',
      path: '/api/v1/organizers/logs/',
      status: 200,
      request_id: 'client-req-42',
      credential_id: expect.stringMatching(/^team_token:\d+$/),
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(linesOf('client-req-42').filter((l) => l.msg === 'request completed')).toHaveLength(1);
    expect(api.output()).not.toContain(token);
    expect(api.output().toLowerCase()).not.toContain('authorization');
  });

  it('names a device credential as device:<id>', async () => {
    const created = await t
      .http()
      .post('/api/v1/organizers/logs/devices/')
      .set('Authorization', auth(token))
      .send({ name: 'Scanner', limit_events: [] });
    const init = await t
      .http()
      .post('/api/v1/device/initialize')
      .send({
        token: (created.body as { initialization_token: string }).initialization_token,
        hardware_brand: 'Zebra',
        hardware_model: 'TC25',
        software_brand: 'pretixSCAN',
        software_version: '1.5.1',
      });
    const apiToken = (init.body as { api_token: string }).api_token;
    const rows: { id: number }[] = await t.db.query('SELECT id FROM device WHERE unique_serial = $1', [
      (init.body as { unique_serial: string }).unique_serial,
    ]);
    const res = await fetch(`${api.baseUrl}/api/v1/device/info`, {
      headers: { Authorization: `Device ${apiToken}`, 'X-Request-Id': 'device-req-1' },
    });
    expect(res.status).toBe(200);
    const line = await waitForLine('device-req-1', 'request completed');
    expect(line).toMatchObject({ status: 200, credential_id: `device:${rows[0].id}` });
    expect(api.output()).not.toContain(apiToken);
  });

  it('replaces an insane incoming request id and logs refused requests too', async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/organizers/logs/`, {
      headers: { Authorization: 'Token not-a-valid-token', 'X-Request-Id': 'bad id with spaces!' },
    });
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = await waitForLine(id, 'request completed');
    expect(line).toMatchObject({ status: 401, credential_id: null, method: 'GET' });
    expect(api.output()).not.toContain('not-a-valid-token');
  });

  it('puts the request id on the lines logged while the request ran', async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/organizers/logs/teams/${teamId}/invites/`, {
      method: 'POST',
      headers: { Authorization: auth(token), 'X-Request-Id': 'invite-1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'new-member@example.com' }),
    });
    expect(res.status).toBe(201);
    await waitForLine('invite-1', 'request completed');
    // No MAIL_URL: the mail context logs that the invitation stays in the outbox, inside the request.
    const mailLines = linesOf('invite-1').filter((l) => l.context === 'Mail');
    expect(mailLines).toHaveLength(1);
    expect(String(mailLines[0].msg)).toMatch(/kept in the outbox/);
  });

  it('logs no warnings at start-up', () => {
    expect(api.jsonLines().filter((l) => (l.level as number) >= 40 && !l.request_id)).toEqual([]);
  });
});
