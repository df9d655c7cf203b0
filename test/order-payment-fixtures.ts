import { randomBytes } from 'crypto';
import type { TestApp } from './harness';

/**
 * Orders written straight to the tables for the payment and refund tests (order creation is another resource's):
 * an order of one position per price on `item`, with payments as given.
 */
export interface PaymentOrderSpec {
  eventSlug?: string;
  status?: 'n' | 'p' | 'e' | 'c';
  item: number;
  prices?: string[];
  payments?: { state: string; amount: string; provider?: string }[];
}

const randomCode = (n: number) =>
  Array.from(randomBytes(n), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');

/** Places the order of `spec` in event `eventSlug` (default `sample`) of organizer `org`; its code. */
export async function placePaymentOrder(t: TestApp, spec: PaymentOrderSpec): Promise<string> {
  const [ev]: { id: number; organizer_id: number }[] = await t.db.query(
    `SELECT e.id, e.organizer_id FROM event e JOIN organizer o ON o.id = e.organizer_id
      WHERE o.slug = 'org' AND e.slug = $1`,
    [spec.eventSlug ?? 'sample'],
  );
  const prices = spec.prices ?? ['100.00'];
  const total = prices.reduce((a, b) => a + Number(b), 0).toFixed(2);
  const status = spec.status ?? 'n';
  const code = randomCode(8);
  const [order]: { id: number }[] = await t.db.query(
    `INSERT INTO orders (event_id, organizer_id, code, status, secret, email, expires, total, require_approval,
                         cancellation_date, datetime, last_modified)
     VALUES ($1, $2, $3, $4, $5, 'buyer@example.org', '2031-01-10T10:00:00Z', $6, false, $7,
             '2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z') RETURNING id`,
    [
      ev.id,
      ev.organizer_id,
      code,
      status,
      randomBytes(16).toString('hex'),
      total,
      status === 'c' ? '2026-01-02T10:00:00Z' : null,
    ],
  );
  for (const [i, price] of prices.entries()) {
    await t.db.query(
      `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id,
                                   canceled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        order.id,
        ev.id,
        i + 1,
        spec.item,
        price,
        randomBytes(16).toString('hex'),
        randomCode(10),
        status === 'c',
      ],
    );
  }
  for (const [i, p] of (spec.payments ?? []).entries()) {
    await t.db.query(
      `INSERT INTO order_payment (order_id, local_id, state, amount, provider, payment_date, created)
       VALUES ($1, $2, $3, $4, $5, $6, '2026-01-01T10:00:00Z')`,
      [
        order.id,
        i + 1,
        p.state,
        p.amount,
        p.provider ?? 'banktransfer',
        p.state === 'confirmed' ? '2026-01-01T11:00:00Z' : null,
      ],
    );
  }
  return code;
}

/** The log entries (action type, data) of the order, oldest first. */
export async function orderLog(
  t: TestApp,
  code: string,
): Promise<{ action: string; data: Record<string, unknown> }[]> {
  const rows: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
    `SELECT l.action_type, l.data FROM log_entry l JOIN orders o ON o.id = l.object_id
      WHERE l.content_type = 'order' AND o.code = $1 ORDER BY l.id`,
    [code],
  );
  return rows.map((r) => ({ action: r.action_type, data: r.data }));
}
