import { AsyncLocalStorage } from 'async_hooks';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'fs';
import type { IncomingMessage, Server, ServerResponse } from 'http';
import { join } from 'path';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/** Where the snapshots live: one `<name>.sql` per hot path. */
const SNAPSHOT_DIR = join(__dirname, 'sql');
/** Set to rewrite the snapshots instead of comparing (`UPDATE_SQL_SNAPSHOTS=1 npm test -- test/sql-snapshots`). */
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
/** Header by which the wrapped server knows a request under test (its value names the capture). */
const CAPTURE_HEADER = 'x-sql-snapshot';
/** A capture is complete once this long has passed with no new statement and none running. */
const QUIET_MS = 100;

/** The statements one request under test sent, in order. */
interface Capture {
  statements: string[];
  /** Statements that arrived after the snapshot was written (asynchronous work left behind: not deterministic). */
  late: string[];
  running: number;
  closed: boolean;
}

const captures = new AsyncLocalStorage<Capture>();
const byName = new Map<string, Capture>();

/**
 * One statement as the snapshot shows it: whitespace collapsed, no parameter values (they are bound, never part
 * of the text), and whatever a run generates (savepoint names, uuids, timestamps, long hex tokens) replaced by a
 * placeholder, and a `SET` statement's configured value too. A named prepared statement (`{ name, text }`, src/common/persistence/prepared.ts) is marked as
 * such; its name (a hash of the text) is left out.
 */
function normaliseStatement(query: unknown): string {
  const prepared = typeof query === 'object' && query !== null && 'text' in query;
  const text = String(prepared ? query.text : query)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b(SAVEPOINT|ROLLBACK TO SAVEPOINT|RELEASE SAVEPOINT) "?[\w$]+"?/gi, '$1 <savepoint>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?/g, '<timestamp>')
    .replace(/\b[0-9a-f]{16,}\b/gi, '<hex>')
    // A setting's value comes from the configuration (e.g. LOCK_TIMEOUT_MS), not from the statement's shape.
    .replace(/^(SET (?:LOCAL |SESSION )?[\w.]+ (?:=|TO) )'[^']*'/i, "$1'<setting>'");
  return prepared ? `-- prepared statement\n${text}` : text;
}

/** The snapshot file's text: a header naming the request, then one statement per block (blank-line separated). */
function render(title: string, statements: string[]): string {
  const head = [
    `-- ${title}`,
    `-- ${statements.length} statements. Written by test/sql-snapshots.e2e-spec.ts; do not edit by hand:`,
    '-- UPDATE_SQL_SNAPSHOTS=1 npm test -- test/sql-snapshots',
  ].join('\n');
  return `${head}\n\n${statements.map((s) => `${s};`).join('\n\n')}\n`;
}

/**
 * SQL snapshots of the hot statements (README "Layout", "SQL snapshots"): one representative request per hot path
 * (quota engine, an order creation with its quota check, list pages, check-in redeem, gift card transaction,
 * cart-position reservation) runs against the real app, and the statements it sent are compared with
 * `test/sql/<name>.sql`. Only its own statements: they are attributed to the request through an AsyncLocalStorage
 * entered when the server receives it, so background work and other requests cannot leak in (every case runs two
 * other requests alongside to check that); asynchronous work the request leaves behind is caught and fails the
 * last test. A difference fails with a line diff; `UPDATE_SQL_SNAPSHOTS=1` rewrites the files so that the change
 * becomes a visible review item.
 */
describe('SQL snapshots of the hot paths', () => {
  let t: TestApp;
  let token: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const ids: Record<string, number> = {};
  let spy: jest.SpyInstance | undefined;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked where used
  const send = async (path: string, body: object, status = 201): Promise<Record<string, any>> => {
    const res = await t.http().post(path).set('Authorization', auth(token)).send(body);
    if (res.status !== status) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };

  const order = (email: string, status: 'n' | 'p') => ({
    email,
    status,
    payment_provider: 'banktransfer',
    positions: [
      { item: ids.ticket, variation: ids.early, attendee_name: 'Jane', answers: [] },
      { item: ids.shirt },
    ],
  });

  /** Every request reaching the server with the capture header runs inside its capture's async context. */
  function attributeRequests(server: Server): void {
    type Listener = (req: IncomingMessage, res: ServerResponse) => void;
    const listeners = server.listeners('request') as Listener[];
    server.removeAllListeners('request');
    for (const listener of listeners) {
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const capture = byName.get(String(req.headers[CAPTURE_HEADER] ?? ''));
        if (capture) captures.run(capture, () => listener.call(server, req, res));
        else listener.call(server, req, res);
      });
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    attributeRequests(t.app.getHttpServer());
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const rule = await send(`${E}/taxrules/`, { name: 'VAT', rate: '19.00' });
    const ticket = await send(`${E}/items/`, {
      name: 'Ticket',
      default_price: '50.00',
      tax_rule: rule.id,
      variations: [{ value: 'Early' }, { value: 'Late', default_price: '60.00' }],
    });
    const shirt = await send(`${E}/items/`, { name: 'Shirt', default_price: '15.00', tax_rule: rule.id });
    ids.ticket = ticket.id as number;
    ids.early = (ticket.variations as { id: number }[])[0].id;
    ids.shirt = shirt.id as number;
    const quota = await send(`${E}/quotas/`, {
      name: 'All',
      size: 100,
      items: [ids.ticket, ids.shirt],
      variations: (ticket.variations as { id: number }[]).map((v) => v.id),
    });
    ids.quota = quota.id as number;
    await send(`${ORG}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.placed'],
    });
    const paid = await send(`${E}/orders/`, order('paid@example.com', 'p'));
    await send(`${E}/orders/`, order('pending@example.com', 'n'));
    ids.position = (paid.positions as { id: number }[])[0].id;
    ids.list = (await send(`${E}/checkinlists/`, { name: 'Main', all_products: true })).id as number;
    ids.giftcard = (await send(`${ORG}/giftcards/`, { currency: 'EUR', value: '50.00' })).id as number;

    const original = PostgresQueryRunner.prototype.query;
    spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (
      this: PostgresQueryRunner,
      ...args: Parameters<PostgresQueryRunner['query']>
    ) {
      const capture = captures.getStore();
      if (!capture) return original.apply(this, args);
      (capture.closed ? capture.late : capture.statements).push(normaliseStatement(args[0]));
      capture.running++;
      return original.apply(this, args).finally(() => capture.running--);
    } as PostgresQueryRunner['query']);
  });

  afterAll(async () => {
    spy?.mockRestore();
    await t?.close();
  });

  /**
   * Runs `request` as the request under test `name` (expecting `status`), waits until the statements it left
   * running are done and quiet, and compares them with (or, updating, writes them to) `test/sql/<name>.sql`.
   */
  async function snapshot(
    name: string,
    title: string,
    status: number,
    request: (header: [string, string]) => PromiseLike<{ status: number; body: unknown }>,
  ): Promise<void> {
    const capture: Capture = { statements: [], late: [], running: 0, closed: false };
    byName.set(name, capture);
    // Other requests run at the same time (not under test, no catalogue list, no writes): their statements must
    // not reach the capture.
    const [res] = await Promise.all([
      request([CAPTURE_HEADER, name]),
      ...[`${E}/orders/`, `${E}/quotas/${ids.quota}/availability/`].map(async (path) => {
        const other = await t.http().get(path).set('Authorization', auth(token));
        expect(other.status).toBe(200);
      }),
    ]);
    expect({ status: res.status, body: res.body }).toMatchObject({ status });
    for (let seen = -1; capture.running > 0 || capture.statements.length !== seen;) {
      seen = capture.statements.length;
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    }
    capture.closed = true;
    expect(capture.statements.length).toBeGreaterThan(0);
    const actual = render(title, capture.statements);
    const file = join(SNAPSHOT_DIR, `${name}.sql`);
    // A missing snapshot is written (a new hot path), except on CI where it must come with the commit.
    if (!UPDATE && !existsSync(file) && process.env.CI) {
      throw new Error(
        `test/sql/${name}.sql is missing: run UPDATE_SQL_SNAPSHOTS=1 npm test -- test/sql-snapshots`,
      );
    }
    if (UPDATE || !existsSync(file)) {
      mkdirSync(SNAPSHOT_DIR, { recursive: true });
      writeFileSync(file, actual);
      return;
    }
    try {
      expect(actual).toBe(readFileSync(file, 'utf8'));
    } catch (err) {
      (err as Error).message =
        `The SQL of ${title} changed (test/sql/${name}.sql, "-" the snapshot, "+" now). If the change is ` +
        `intended, rewrite the snapshots with UPDATE_SQL_SNAPSHOTS=1 npm test -- test/sql-snapshots and commit ` +
        `them for review.\n\n${(err as Error).message}`;
      throw err;
    }
  }

  const get = (path: string) => (h: [string, string]) =>
    t
      .http()
      .get(path)
      .set('Authorization', auth(token))
      .set(...h);
  const post = (path: string, body: object) => (h: [string, string]) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .set(...h)
      .send(body);

  it('quota engine: GET quotas/:id/availability/', async () => {
    await snapshot(
      'quota-availability',
      'GET /api/v1/organizers/:organizer/events/:event/quotas/:id/availability/',
      200,
      get(`${E}/quotas/${ids.quota}/availability/`),
    );
  });

  it('order creation with its quota check: POST orders/', async () => {
    await snapshot(
      'order-create',
      'POST /api/v1/organizers/:organizer/events/:event/orders/ (two positions in one quota, a webhook listening)',
      201,
      post(`${E}/orders/`, order('new@example.com', 'n')),
    );
  });

  it('list page: GET orders/', async () => {
    await snapshot(
      'orders-list',
      'GET /api/v1/organizers/:organizer/events/:event/orders/',
      200,
      get(`${E}/orders/`),
    );
  });

  it('list page: GET items/ (rendered, not from the list cache)', async () => {
    await snapshot(
      'items-list',
      'GET /api/v1/organizers/:organizer/events/:event/items/ (first read after a catalogue write)',
      200,
      get(`${E}/items/`),
    );
  });

  it('check-in: POST checkinlists/:list/positions/:position/redeem/', async () => {
    await snapshot(
      'checkin-redeem',
      'POST /api/v1/organizers/:organizer/events/:event/checkinlists/:list/positions/:position/redeem/',
      201,
      post(`${E}/checkinlists/${ids.list}/positions/${ids.position}/redeem/`, {}),
    );
  });

  it('gift card: POST giftcards/:id/transact/', async () => {
    await snapshot(
      'giftcard-transact',
      'POST /api/v1/organizers/:organizer/giftcards/:id/transact/ (a debit)',
      200,
      post(`${ORG}/giftcards/${ids.giftcard}/transact/`, { value: '-5.00' }),
    );
  });

  it('reservation: POST cartpositions/', async () => {
    await snapshot(
      'cartposition-create',
      'POST /api/v1/organizers/:organizer/events/:event/cartpositions/',
      201,
      post(`${E}/cartpositions/`, { item: ids.ticket, variation: ids.early, price: '50.00' }),
    );
  });

  it('no request under test left statements running after its snapshot, and every snapshot has a request', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
    const late = [...byName]
      .filter(([, c]) => c.late.length > 0)
      .map(([name, c]) => `${name}: ${c.late.join(' | ')}`);
    expect(late).toEqual([]);
    const files = readdirSync(SNAPSHOT_DIR).filter((f) => f.endsWith('.sql'));
    expect(files.map((f) => f.replace(/\.sql$/, '')).filter((n) => !byName.has(n))).toEqual([]);
  });
});
