import type { EntityManager } from 'typeorm';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';
import { nameFromParts } from './order.presenter';
import { type MailRecipientQuery, OrderBulkReadQueries } from './order-bulk-reads.queries';
import { ORDER_STATUS_SQL } from './order-list.queries';

export type { MailRecipientQuery } from './order-bulk-reads.queries';

/** One matching position with its order (uncanceled positions only). */
export interface MailRecipient {
  orderId: number;
  code: string;
  secret: string;
  orderEmail: string | null;
  locale: string;
  /** Name on the invoice address, else of the first position with one. */
  orderName: string | null;
  positionId: number;
  attendeeEmail: string | null;
  attendeeName: string | null;
  /** Whether this position has a successful check-in. */
  checkedIn: boolean;
}

/** The queries are stateless; this read is a free function (the mail rules call it with their `em`). */
const queries = new OrderBulkReadQueries();
const checkinSeam = new CheckinSeamQueries();

/**
 * One page of matching positions, grouped by order id (at most `limit` orders), in order id order. Two statements
 * (positions, then their check-ins).
 */
export async function mailRecipients(em: EntityManager, q: MailRecipientQuery): Promise<MailRecipient[]> {
  const states = q.statuses.map((s) => ORDER_STATUS_SQL[s]).filter((s): s is string => s !== undefined);
  if (states.length === 0 || q.limit < 1) return [];
  const rows = await queries.mailRecipientRows(em, q, states);
  const scanned = new Set(
    (
      await checkinSeam.successfulCheckins(
        em,
        rows.map((r) => r.position_id),
      )
    )
      .filter((c) => c.type === 'entry')
      .map((c) => c.position_id),
  );
  const firstName = new Map<number, string>();
  for (const r of rows) {
    const name = nameFromParts(r.attendee_name_parts);
    if (name && !firstName.has(r.order_id)) firstName.set(r.order_id, name);
  }
  return rows.map((r) => ({
    orderId: r.order_id,
    code: r.code,
    secret: r.secret,
    orderEmail: r.email,
    locale: r.locale,
    orderName: nameFromParts(r.address_name) ?? firstName.get(r.order_id) ?? null,
    positionId: r.position_id,
    attendeeEmail: r.attendee_email,
    attendeeName: nameFromParts(r.attendee_name_parts),
    checkedIn: scanned.has(r.position_id),
  }));
}
