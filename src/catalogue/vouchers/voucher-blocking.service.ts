import { Injectable } from '@nestjs/common';

/** What blocking vouchers hold: places per quota, and which of the vouchers asked about block quota at all. */
export interface BlockingVouchers {
  /** Places held per quota id (quotas holding none are absent). */
  placesByQuota: Map<number, number>;
  /** The ids among `among` whose voucher has `block_quota` (whatever its validity or usage). */
  blocking: Set<number>;
}

/**
 * The inputs of {@link VoucherBlocking.placesSql}, each a SQL expression of the caller's statement: `quotaIds`,
 * `eventIds` and `among` are `int[]`, `now` a `timestamptz`, `excludeVoucherId` an `int` (NULL for none).
 */
export interface BlockingSqlInputs {
  quotaIds: string;
  eventIds: string;
  now: string;
  excludeVoucherId: string;
  among: string;
}

/** A row of {@link VoucherBlocking.placesSql}: places held on a quota, or a blocking voucher among those asked. */
export interface BlockingRow {
  quota_id: number | null;
  n: number;
  voucher_id: number | null;
}

/**
 * The quota side of vouchers (compat §3.23, spec "Quota availability object" `blocking_vouchers`), for the quota
 * engine: a valid (`valid_until` not passed), `block_quota`, not used-up voucher holds `max_usages - redeemed`
 * places in the quotas of its quota, item or variation (and sub-event). Vouchers are grouped before they meet
 * the quotas, so 10,000 vouchers cost little.
 */
@Injectable()
export class VoucherBlocking {
  /**
   * What blocking vouchers hold, as a part of the caller's statement (the quota engine counts sales and vouchers
   * in one round trip): a SELECT (usable as a subquery) of {@link BlockingRow}s for any number of quotas and
   * vouchers, turned into the answer by {@link read}. The voucher tables stay this context's: callers never name
   * them. `excludeVoucherId`: a voucher whose own places are left out (it is being edited); `among`: voucher ids
   * (of cart positions) to tell blocking ones apart in {@link BlockingVouchers.blocking}; vouchers are looked up
   * in the events `eventIds` of the quotas.
   */
  placesSql(input: BlockingSqlInputs): string {
    return `WITH v AS (
         SELECT quota_id, item_id, variation_id, subevent_id, SUM(max_usages - redeemed)::int AS n
           FROM voucher
          WHERE event_id = ANY(${input.eventIds}) AND block_quota AND redeemed < max_usages
            AND (valid_until IS NULL OR valid_until >= ${input.now})
            AND (${input.excludeVoucherId} IS NULL OR id <> ${input.excludeVoucherId})
          GROUP BY quota_id, item_id, variation_id, subevent_id
       )
       SELECT q.id AS quota_id, COALESCE(SUM(v.n), 0)::int AS n, NULL::int AS voucher_id
         FROM quota q
         JOIN v ON (q.subevent_id IS NULL OR v.subevent_id = q.subevent_id)
          AND (v.quota_id = q.id
            OR (v.quota_id IS NULL AND v.variation_id IS NULL AND EXISTS (
                  SELECT 1 FROM quota_item qi WHERE qi.quota_id = q.id AND qi.item_id = v.item_id))
            OR (v.quota_id IS NULL AND v.variation_id IS NOT NULL AND EXISTS (
                  SELECT 1 FROM quota_variation qv WHERE qv.quota_id = q.id AND qv.variation_id = v.variation_id)))
        WHERE q.id = ANY(${input.quotaIds})
        GROUP BY q.id
       UNION ALL
       SELECT NULL, 0, id FROM voucher WHERE id = ANY(${input.among}) AND block_quota`;
  }

  /** Turns the rows of {@link placesSql} into places per quota and the blocking vouchers. */
  read(rows: readonly BlockingRow[]): BlockingVouchers {
    const out: BlockingVouchers = { placesByQuota: new Map(), blocking: new Set() };
    for (const r of rows) {
      if (r.voucher_id !== null) out.blocking.add(r.voucher_id);
      else if (r.quota_id !== null) out.placesByQuota.set(r.quota_id, r.n);
    }
    return out;
  }
}
