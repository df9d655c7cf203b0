import { auth } from './factories';
import type { TestApp } from './harness';

/** One change of `GET O/changes/`. */
export interface Change {
  id: string;
  sequence: number;
  action: string;
  resource: string;
  event: string | null;
  key: Record<string, string | number>;
  occurred_at: string;
  data: Record<string, unknown> | null;
  deleted: boolean;
}

/**
 * Waits until every transaction that started before now has ended (the change feed's watermark passed them), so
 * the feed hands out every change made so far. Other test databases of this cluster may hold a transaction open
 * for a while (a bench loading data), which holds the watermark back (by design).
 */
export async function settle(t: TestApp): Promise<void> {
  const [{ next }] = await t.db.query<{ next: string }[]>(
    'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
  );
  for (let i = 0; i < 3600; i++) {
    const [{ passed }] = await t.db.query<{ passed: boolean }[]>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint >= $1::bigint AS passed',
      [next],
    );
    if (passed) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the watermark did not pass within three minutes');
}

/**
 * Reads the feed from `cursor` until a page comes back empty (after {@link settle}), as a syncing client does.
 * @returns the changes in order and the cursor to continue with
 */
export async function pullAll(
  t: TestApp,
  token: string,
  organizer: string,
  cursor: string | null,
  query = '',
): Promise<{ changes: Change[]; cursor: string }> {
  await settle(t);
  const changes: Change[] = [];
  let next = cursor;
  for (;;) {
    const q = [next ? `cursor=${encodeURIComponent(next)}` : '', 'page_size=1000', query]
      .filter(Boolean)
      .join('&');
    const res = await t
      .http()
      .get(`/api/v1/organizers/${organizer}/changes/?${q}`)
      .set('Authorization', auth(token));
    if (res.status !== 200) throw new Error(`changes: ${res.status} ${JSON.stringify(res.body)}`);
    const body = res.body as { next: string; results: Change[] };
    changes.push(...body.results);
    next = body.next;
    if (body.results.length === 0) return { changes, cursor: body.next };
  }
}

/** A client's mirror: the latest data of every object by resource and key, built by applying changes in order. */
export class Mirror {
  readonly objects = new Map<string, Map<string, Record<string, unknown>>>();

  apply(changes: readonly Change[]): void {
    for (const c of changes) {
      const of = this.objects.get(c.resource) ?? new Map<string, Record<string, unknown>>();
      this.objects.set(c.resource, of);
      const key = JSON.stringify(c.key);
      if (c.deleted && c.resource === 'order' && of.has(key)) this.dropCheckinsOf(of.get(key)!);
      if (c.deleted) of.delete(key);
      else if (c.data) of.set(key, c.data);
    }
  }

  /** A deleted order takes its positions' check-ins with it (a cascade the feed does not restate per check-in). */
  private dropCheckinsOf(order: Record<string, unknown>): void {
    const positions = new Set((order.positions as { id: number }[]).map((p) => p.id));
    const checkins = this.objects.get('checkin') ?? new Map<string, Record<string, unknown>>();
    for (const [key, data] of checkins) if (positions.has(data.position as number)) checkins.delete(key);
  }

  /** The mirrored objects of a resource, by key value (`{"id": 5}` -> `5`). */
  of(resource: string): Map<string | number, Record<string, unknown>> {
    const out = new Map<string | number, Record<string, unknown>>();
    for (const [key, data] of this.objects.get(resource) ?? []) {
      out.set(Object.values(JSON.parse(key) as Record<string, string | number>)[0], data);
    }
    return out;
  }
}
