import { PNG } from 'pngjs';
import { crc32 } from 'zlib';
import { version as packageVersion } from '../package.json';
import { AuditLogService } from '../src/audit/audit-log.service';
import { Principal } from '../src/auth/principal';
import { PositionBlocking } from '../src/orders/blocking/position-blocking.service';
import { Event } from '../src/organizers/event.entity';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** A valid PNG of `width` × `height` pixels. */
function png(width = 2, height = 2): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image);
}

/** A well-formed PNG whose header declares `width` × `height` pixels (its pixel data is not decoded by the check). */
function declaredPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PDF = Buffer.from('%PDF-1.4 invalid pdf content');
const FILE_ID = /^file:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * pretix's device-facing extras (issue 26): `GET /api/v1/version`, `POST /api/v1/upload` with its types, limits and
 * messages, `file:<uuid>` answers in order creation and in redeem (bound to the uploading credential, refused when
 * foreign, unknown or expired), the answer file download, `GET /api/v1/idempotency_query`, and the device named in
 * log entries and print logs.
 */
describe('device extras: version, upload, file answers, idempotency query, device in logs', () => {
  let t: TestApp;
  let token: string;
  let other: string;
  let reader: string;
  let ticket: number;
  let photo: number;
  let organizerId: number;
  const E = '/api/v1/organizers/org/events/sample';
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const upload = (
    body: Buffer,
    type: string,
    filename: string | null,
    tok = token,
  ): ReturnType<ReturnType<TestApp['http']>['post']> => {
    const req = t.http().post('/api/v1/upload').set('Authorization', auth(tok)).set('Content-Type', type);
    if (filename !== null) req.set('Content-Disposition', `attachment; filename="${filename}"`);
    return req.send(body);
  };
  const uploadId = async (tok = token, body = png(), type = 'image/png', name = 'photo.png') => {
    const res = await upload(body, type, name, tok);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const count = async (table: string, where = 'true'): Promise<number> =>
    Number((await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`))[0].n);
  const answersOf = async (position: number): Promise<{ question_id: number; answer: string }[]> =>
    t.db.query('SELECT question_id, answer FROM question_answer WHERE order_position_id = $1 ORDER BY id', [
      position,
    ]);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, organizerId } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    other = await teamToken(t, 'org', { allEvents: true, allEventPermissions: true });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.vouchers:read'] });
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket] });
    const q = await post(`${E}/questions/`, {
      question: { en: 'Photo' },
      type: 'F',
      items: [ticket],
      ask_during_checkin: true,
    });
    expect(q.status).toBe(201);
    photo = q.body.id;
  });
  afterAll(() => t.close());

  describe('GET /api/v1/version', () => {
    it('answers pretix 2026.5 in pretix fields, with our version as local label; any credential; 401 without', async () => {
      const res = await get('/api/v1/version');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        pretix: `2026.5.0+ticketing-api.${packageVersion}`,
        pretix_numeric: 20260050005000,
      });
      expect((await get('/api/v1/version', reader)).status).toBe(200);
      expect((await t.http().get('/api/v1/version')).status).toBe(401);
    });
  });

  describe('POST /api/v1/upload', () => {
    it('stores a PDF and a PNG bound to the credential for a day: 201 {"id": "file:<uuid>"}', async () => {
      const res = await upload(PDF, 'application/pdf', 'file.pdf');
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.stringMatching(FILE_ID) });
      const [row] = await t.db.query(
        `SELECT kind, filename, content_type, content, credential_kind, credential_id,
                expires > now() + interval '23 hours' AND expires < now() + interval '25 hours' AS one_day
           FROM stored_file WHERE id = $1`,
        [res.body.id.slice(5)],
      );
      expect(row).toMatchObject({
        kind: 'upload',
        filename: 'file.pdf',
        content_type: 'application/pdf',
        credential_kind: 'team_token',
        one_day: true,
      });
      expect(Buffer.compare(row.content, PDF)).toBe(0);
      const image = await upload(png(), 'image/png; charset=binary', 'file.png');
      expect(image.status).toBe(201);
    });

    it("refuses what pretix refuses, with pretix's messages, and stores nothing", async () => {
      const before = await count('stored_file');
      const cases: [Buffer, string, string | null, number, unknown][] = [
        [
          PDF,
          'application/pdf',
          'file.png',
          400,
          ['File name "file.png" has an invalid extension for type "application/pdf"'],
        ],
        [
          PDF,
          'application/octet-stream',
          'file.bin',
          400,
          ['Content type "application/octet-stream" is not allowed'],
        ],
        [
          Buffer.from('invalid png content'),
          'image/png',
          'file.png',
          400,
          ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
        ],
        [
          declaredPng(9560, 9560),
          'image/png',
          'file.png',
          400,
          [
            'The file you uploaded has a very large number of pixels, please upload a picture with smaller dimensions.',
          ],
        ],
        [
          PDF,
          'application/pdf',
          null,
          400,
          {
            detail:
              'Missing filename. Request should include a Content-Disposition header with a filename parameter.',
          },
        ],
        [Buffer.alloc(0), 'application/pdf', 'file.pdf', 400, ['No file has been submitted.']],
        [
          Buffer.alloc(10 * 1024 * 1024 + 1, 0x25),
          'application/pdf',
          'big.pdf',
          413,
          { detail: 'Request body too large.' },
        ],
      ];
      for (const [body, type, name, status, answer] of cases) {
        const res = await upload(body, type, name);
        expect([name, res.status, res.body]).toEqual([name, status, answer]);
      }
      expect(await count('stored_file')).toBe(before);
      // A JPEG and a GIF pass; the image checks do not reject a well-formed image just under the pixel bound.
      expect((await upload(declaredPng(9459, 9459), 'image/png', 'edge.png')).status).toBe(201);
      expect((await upload(png(), 'image/png', 'photo.PNG')).status).toBe(400); // case-sensitive, as pretix
      expect((await t.http().post('/api/v1/upload').send(PDF)).status).toBe(401);
    });
  });

  describe('file answers in order creation', () => {
    const createOrder = (answer: string, tok = token) =>
      post(`${E}/orders/`, { positions: [{ item: ticket, answers: [{ question: photo, answer }] }] }, tok);

    it('accepts an upload of the credential; the answer shows its download URL, which sends the file', async () => {
      const bytes = png(3, 3);
      const id = await uploadId(token, bytes);
      const res = await createOrder(id);
      expect(res.status).toBe(201);
      const position = res.body.positions[0];
      const url = `http://testserver${E}/orderpositions/${position.id}/answer/${photo}/`;
      expect(position.answers).toEqual([
        {
          question: photo,
          answer: url,
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
      ]);
      const [stored] = await answersOf(position.id);
      expect(stored.answer).toMatch(/^file:\/\/[0-9a-f-]{36}$/);
      // The kept copy does not expire; the upload itself still does.
      const [kept] = await t.db.query('SELECT kind, expires, organizer_id FROM stored_file WHERE id = $1', [
        stored.answer.slice(7),
      ]);
      expect(kept).toEqual({ kind: 'answer_file', expires: null, organizer_id: organizerId });
      expect((await get(`${E}/orderpositions/${position.id}/`)).body.answers[0].answer).toBe(url);
      expect((await get(`${E}/orders/${res.body.code}/`)).body.positions[0].answers[0].answer).toBe(url);

      const file = await get(`${E}/orderpositions/${position.id}/answer/${photo}/`).buffer(true);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="SAMPLE-${res.body.code}-1-png"`,
      );
      expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
      // pretix's permission: event.orders:read; an answer that is not a file, or none: 404.
      expect((await get(`${E}/orderpositions/${position.id}/answer/${photo}/`, reader)).status).toBe(403);
      expect((await get(`${E}/orderpositions/${position.id}/answer/999999/`)).status).toBe(404);
      // The same upload may be used again within its day (pretix keeps the cached file).
      expect((await createOrder(id)).status).toBe(201);
    });

    it('refuses a foreign, unknown, expired or malformed file id with 400 and creates nothing', async () => {
      const foreign = await uploadId(other);
      const expired = await uploadId(token);
      await t.db.query(`UPDATE stored_file SET expires = now() - interval '1 second' WHERE id = $1`, [
        expired.slice(5),
      ]);
      const orders = await count('orders');
      for (const ref of [
        foreign,
        expired,
        'file:00000000-0000-4000-8000-000000000000',
        'file:nope',
        'photo.png',
      ]) {
        const res = await createOrder(ref);
        expect([ref, res.status, res.body]).toEqual([
          ref,
          400,
          {
            positions: [
              { answers: [{ non_field_errors: [`The submitted file ID "${ref}" was not found.`] }] },
            ],
          },
        ]);
      }
      expect(await count('orders')).toBe(orders);
      // The other credential may use its own upload.
      expect((await createOrder(foreign, other)).status).toBe(201);
    });
  });

  describe('file answers in redeem', () => {
    it('a file question asked at the door takes the scanner’s upload; a foreign or expired one counts as missing', async () => {
      const l = (await post(`${E}/checkinlists/`, { name: 'Door', all_products: true })).body.id as number;
      const o = await post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }] });
      expect(o.status).toBe(201);
      const { id, secret } = o.body.positions[0];
      const redeem = (body: object) => post(`${E}/checkinlists/${l}/positions/${secret}/redeem/`, body);

      const missing = await redeem({});
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ status: 'incomplete', questions: [{ id: photo, type: 'F' }] });

      const expired = await uploadId(token);
      await t.db.query(`UPDATE stored_file SET expires = now() - interval '1 second' WHERE id = $1`, [
        expired.slice(5),
      ]);
      for (const ref of [await uploadId(other), expired, 'file:00000000-0000-4000-8000-000000000000']) {
        const refused = await redeem({ answers: { [photo]: ref } });
        expect([ref, refused.status, refused.body.status]).toEqual([ref, 400, 'incomplete']);
      }
      expect(await answersOf(id)).toEqual([]);
      expect(await count('checkin', `position_id = ${Number(id)} AND successful`)).toBe(0);

      const ok = await redeem({ answers: { [photo]: await uploadId(token) } });
      expect(ok.status).toBe(201);
      expect(ok.body.status).toBe('ok');
      const [stored] = await answersOf(id);
      expect(stored).toEqual({ question_id: photo, answer: expect.stringMatching(/^file:\/\//) });
      expect(ok.body.position.answers).toEqual([
        expect.objectContaining({
          question: photo,
          answer: `http://testserver${E}/orderpositions/${id}/answer/${photo}/`,
        }),
      ]);
      expect((await get(`${E}/orderpositions/${id}/answer/${photo}/`)).status).toBe(200);
    });
  });

  describe('GET /api/v1/idempotency_query', () => {
    it('answers the stored response of a key this credential used, byte for byte, with its status', async () => {
      const created = await t
        .http()
        .post(`${E}/questions/`)
        .set('Authorization', auth(token))
        .set('X-Idempotency-Key', 'q-create-1')
        .send({ question: { en: 'Shoe size' }, type: 'N', items: [] });
      expect(created.status).toBe(201);
      const byQuery = await get('/api/v1/idempotency_query?key=q-create-1');
      expect(byQuery.status).toBe(201);
      expect(byQuery.text).toBe(created.text);
      expect(byQuery.headers['content-type']).toBe(created.headers['content-type']);
      const byHeader = await get('/api/v1/idempotency_query').set('X-Idempotency-Key', 'q-create-1');
      expect([byHeader.status, byHeader.text]).toEqual([201, created.text]);
      // Asking does not repeat the write.
      expect(await count('question', `question->>'en' = 'Shoe size'`)).toBe(1);

      const refused = await t
        .http()
        .post(`${E}/questions/`)
        .set('Authorization', auth(token))
        .set('X-Idempotency-Key', 'q-create-2')
        .send({ type: 'N' });
      expect(refused.status).toBe(400);
      const stored = await get('/api/v1/idempotency_query?key=q-create-2');
      expect([stored.status, stored.body]).toEqual([400, refused.body]);
    });

    it("answers pretix's 404s for an unknown key, another credential's key and no key", async () => {
      await t
        .http()
        .post(`${E}/questions/`)
        .set('Authorization', auth(token))
        .set('X-Idempotency-Key', 'mine')
        .send({ question: { en: 'Mine' }, type: 'S', items: [] })
        .expect(201);
      const notSeen = { detail: 'Idempotency key not seen before.' };
      const unknown = await get('/api/v1/idempotency_query?key=never-used');
      expect([unknown.status, unknown.body]).toEqual([404, notSeen]);
      const foreign = await get('/api/v1/idempotency_query?key=mine', other);
      expect([foreign.status, foreign.body]).toEqual([404, notSeen]);
      const none = await get('/api/v1/idempotency_query');
      expect([none.status, none.body]).toEqual([404, { detail: 'No idempotency key given.' }]);
      await t.db.query(
        `UPDATE idempotency_record SET expires = now() - interval '1 second' WHERE key = 'mine'`,
      );
      expect((await get('/api/v1/idempotency_query?key=mine')).status).toBe(404);
    });
  });

  describe('the device in log entries and print logs', () => {
    const device = new Principal(
      {
        kind: 'device',
        device: {
          id: 4242,
          deviceId: 7,
          name: 'Gate scanner',
          organizerId: 0,
          securityProfile: 'full',
          gate: null,
        },
      },
      [],
    );

    it('a log entry written by a device carries its id; one by a token none', async () => {
      const audit = t.app.get(AuditLogService);
      await t.db.transaction(async (em) => {
        await audit.record(em, device, {
          organizerId,
          contentType: 'event',
          objectId: 1,
          action: 'test.device.entry',
        });
        await audit.recordMany(em, device, [
          { organizerId, contentType: 'event', objectId: 2, action: 'test.device.many' },
        ]);
      });
      expect(
        await t.db.query(
          `SELECT action_type, device_id, api_token_id FROM log_entry WHERE action_type LIKE 'test.device.%'
            ORDER BY id`,
        ),
      ).toEqual([
        { action_type: 'test.device.entry', device_id: 4242, api_token_id: null },
        { action_type: 'test.device.many', device_id: 4242, api_token_id: null },
      ]);
      // A token's write names no device.
      await post(`${E}/questions/`, { question: { en: 'By token' }, type: 'S', items: [] }).expect(201);
      const [latest] = await t.db.query(
        `SELECT device_id, api_token_id FROM log_entry WHERE action_type = 'pretix.event.question.added'
          ORDER BY id DESC LIMIT 1`,
      );
      expect(latest).toEqual({ device_id: null, api_token_id: expect.any(Number) });
    });

    it('a print log recorded by a device shows its device_id', async () => {
      const o = await post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }] });
      const position = o.body.positions[0].id as number;
      const event = await t.db.getRepository(Event).findOneByOrFail({ organizerId, slug: 'sample' });
      const log = await t.app.get(PositionBlocking).printLog(event, device, position, {
        datetime: '2026-01-02T10:00:00Z',
        source: 'pretixSCAN',
        type: 'badge',
      });
      expect(log).toMatchObject({ device_id: 7, source: 'pretixSCAN' });
      const shown = await get(`${E}/orderpositions/${position}/`);
      expect(shown.body.print_logs).toEqual([expect.objectContaining({ id: log.id, device_id: 7 })]);
      expect(await t.db.query('SELECT device_id FROM print_log WHERE id = $1', [log.id])).toEqual([
        { device_id: 7 },
      ]);
    });
  });

  describe('with a real device (Authorization: Device <token>)', () => {
    let deviceToken: string;
    let deviceNumber: number;
    let deviceRowId: number;
    const asDevice = (req: ReturnType<ReturnType<TestApp['http']>['get']>) =>
      req.set('Authorization', `Device ${deviceToken}`);

    beforeAll(async () => {
      const created = await post('/api/v1/organizers/org/devices/', {
        name: 'Gate 1',
        all_events: true,
        limit_events: [],
      });
      expect(created.status).toBe(201);
      deviceNumber = created.body.device_id;
      const init = await t.http().post('/api/v1/device/initialize').send({
        token: created.body.initialization_token,
        hardware_brand: 'Zebra',
        hardware_model: 'TC25',
        software_brand: 'pretixSCAN',
        software_version: '1.22.0',
      });
      expect(init.status).toBe(200);
      deviceToken = init.body.api_token;
      [{ id: deviceRowId }] = await t.db.query(
        'SELECT id FROM device WHERE organizer_id = $1 AND device_id = $2',
        [organizerId, deviceNumber],
      );
    });

    it('reads the version, uploads, answers at the door with its upload; its scan is logged with its device_id', async () => {
      const version = await asDevice(t.http().get('/api/v1/version'));
      expect([version.status, version.body.pretix_numeric]).toEqual([200, 20260050005000]);

      const uploaded = await asDevice(t.http().post('/api/v1/upload'))
        .set('Content-Type', 'image/png')
        .set('Content-Disposition', 'attachment; filename="door.png"')
        .send(png());
      expect(uploaded.status).toBe(201);
      const [row] = await t.db.query('SELECT credential_kind, credential_id FROM stored_file WHERE id = $1', [
        uploaded.body.id.slice(5),
      ]);
      expect(row).toEqual({ credential_kind: 'device', credential_id: deviceRowId });
      // The device's upload is foreign to the team token.
      const foreign = await post(`${E}/orders/`, {
        positions: [{ item: ticket, answers: [{ question: photo, answer: uploaded.body.id }] }],
      });
      expect(foreign.status).toBe(400);

      const l = (await post(`${E}/checkinlists/`, { name: 'Device door', all_products: true })).body
        .id as number;
      const o = await post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }] });
      const { id, secret } = o.body.positions[0];
      const ok = await asDevice(t.http().post(`${E}/checkinlists/${l}/positions/${secret}/redeem/`)).send({
        answers: { [photo]: uploaded.body.id },
      });
      expect([ok.status, ok.body.status]).toEqual([201, 'ok']);
      expect((await answersOf(id))[0].answer).toMatch(/^file:\/\//);
      const entries = await t.db.query(
        `SELECT action_type, device_id, api_token_id FROM log_entry
          WHERE action_type = 'pretix.event.checkin' AND (data->>'position')::int = $1`,
        [id],
      );
      expect(entries).toEqual([
        { action_type: 'pretix.event.checkin', device_id: deviceRowId, api_token_id: null },
      ]);
    });

    it("a device's print log shows its device_id", async () => {
      const o = await post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }] });
      const position = o.body.positions[0].id as number;
      const res = await asDevice(t.http().post(`${E}/orderpositions/${position}/printlog/`)).send({
        datetime: '2026-01-02T10:00:00Z',
        source: 'pretixSCAN',
        type: 'badge',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ device_id: deviceNumber, source: 'pretixSCAN' });
      expect((await get(`${E}/orderpositions/${position}/`)).body.print_logs).toEqual([
        expect.objectContaining({ id: res.body.id, device_id: deviceNumber }),
      ]);
      const [entry] = await t.db.query(
        `SELECT device_id FROM log_entry WHERE action_type = 'pretix.event.order.print' ORDER BY id DESC LIMIT 1`,
      );
      expect(entry).toEqual({ device_id: deviceRowId });
    });
  });
});
