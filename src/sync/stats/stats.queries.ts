import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { VoucherQueries } from '../../catalogue/vouchers/voucher.queries';
import { CheckinCountsQueries } from '../../checkin/checkin-counts.queries';
import { preparedQuery } from '../../common/persistence/prepared';
import { OrderTotalsQueries } from '../../orders/quota-engine/order-totals.queries';

/**
 * A row of the counters statement: the orders of one status (`o`: `status`, `a` count, `total`), a check-in
 * list (`l`: `id`, `a` checked in, `b` inside), or what blocking vouchers hold on one target (`v`: `id` the
 * quota or null, `item_id`, `variation_id`, `subevent_id`, `a` places).
 */
export interface CounterRow {
  kind: 'o' | 'l' | 'v';
  status: string | null;
  id: number | null;
  item_id: number | null;
  variation_id: number | null;
  subevent_id: number | null;
  a: number;
  b: number;
  total: string | null;
}

/**
 * The live figures' one statement beside the quota engine's (README "Live figures"), composed of the owners'
 * fragments: the maintained order totals (orders, {@link OrderTotalsQueries.byEvent}), the maintained check-in
 * list counts (check-in, {@link CheckinCountsQueries.byEvent}) and the places blocking vouchers hold per target
 * (catalogue, {@link VoucherQueries.blockingTargets}). Parameters: $1 event id, $2 sub-event id or NULL, $3 now.
 */
const COUNTERS = `
  SELECT 'o' AS kind, o.status, NULL::int AS id, NULL::int AS item_id, NULL::int AS variation_id,
         NULL::int AS subevent_id, o.count AS a, 0 AS b, o.total
    FROM (${OrderTotalsQueries.byEvent('$1::int')}) o
  UNION ALL
  SELECT 'l', NULL, l.list_id, NULL, NULL, NULL, l.checked_in, l.inside, NULL
    FROM (${CheckinCountsQueries.byEvent('$1::int', '$2::int')}) l
  UNION ALL
  SELECT 'v', NULL, v.quota_id, v.item_id, v.variation_id, v.subevent_id, v.n, 0, NULL
    FROM (${VoucherQueries.blockingTargets('$1::int', '$3::timestamptz')}) v`;

/** The statement of the live figures' counters (stateless; runs on the caller's EntityManager). */
@Injectable()
export class StatsQueries {
  /** The counter rows of the event (one prepared statement, no lock). */
  counters(em: EntityManager, eventId: number, subeventId: number | null, now: Date): Promise<CounterRow[]> {
    return preparedQuery<CounterRow>(em, COUNTERS, [eventId, subeventId, now]);
  }
}
