import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginate } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { Voucher } from './voucher.entity';

/** One exported voucher (money as strings). */
export interface VoucherExportRow {
  id: number;
  code: string;
  max_usages: number;
  redeemed: number;
  valid_until: Date | null;
  block_quota: boolean;
  price_mode: string;
  value: string | null;
  item_id: number | null;
  variation_id: number | null;
  quota_id: number | null;
  subevent_id: number | null;
  tag: string | null;
  comment: string | null;
}

/**
 * The inputs of {@link VoucherQueries.blockingPlaces}, each a SQL expression of the caller's statement:
 * `quotaIds`, `eventIds` and `among` are `int[]`, `now` a `timestamptz`, `excludeVoucherId` an `int` (NULL for
 * none).
 */
export interface BlockingSqlInputs {
  quotaIds: string;
  eventIds: string;
  now: string;
  excludeVoucherId: string;
  among: string;
}

/**
 * The SQL of the catalogue's `voucher` table (compat §3.23): the list page, code checks, redemption counters,
 * the sales and export reads, and the fragments other contexts splice into their statements (the places held by
 * seat-bound vouchers, the places blocking vouchers hold). Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class VoucherQueries {
  /**
   * SQL selecting `(seat, id)` of the vouchers holding seats (a voucher bound to a seat holds it while it can
   * still be redeemed, `redeemed < max_usages`; compat §3.18), for a caller's statement to use as a derived
   * table: `where` is a condition on the voucher's columns (`event_id`, `subevent_id`, `seat_id`, `id`) written
   * with the caller's parameters.
   */
  static seatHolds(where: string): SqlFragment {
    return sqlFragment(`SELECT seat_id AS seat, id FROM voucher
           WHERE seat_id IS NOT NULL AND redeemed < max_usages AND ${where}`);
  }

  /**
   * What blocking vouchers hold (compat §3.23, spec "Quota availability object" `blocking_vouchers`), as a part
   * of the caller's statement (the quota engine counts sales and vouchers in one round trip): a SELECT (usable as
   * a subquery) of rows `(quota_id int, n int, voucher_id int)` — places `n` held on quota `quota_id`, or
   * (`quota_id` NULL) a `block_quota` voucher among `among`. A valid, `block_quota`, not used-up voucher holds
   * `max_usages - redeemed` places in the quotas of its quota, item or variation (and sub-event); vouchers are
   * grouped before they meet the quotas. `excludeVoucherId`: a voucher whose own places are left out; vouchers
   * are looked up in the events `eventIds` of the quotas.
   */
  static blockingPlaces(input: BlockingSqlInputs): SqlFragment {
    return sqlFragment(`WITH v AS (
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
       SELECT NULL, 0, id FROM voucher WHERE id = ANY(${input.among}) AND block_quota`);
  }

  /**
   * What blocking vouchers hold per target (README "Live figures", `E/stats/`), for a caller's statement: a
   * SELECT of rows `(quota_id, item_id, variation_id, subevent_id, n int)`, the places `n` that valid
   * (`valid_until` not passed), `block_quota`, not used-up vouchers of the event hold on a quota or an item or a
   * variation (and sub-event), grouped by target as in {@link blockingPlaces}. `eventId` is an `int` and `now` a
   * `timestamptz` expression of the caller's statement.
   */
  static blockingTargets(eventId: string, now: string): SqlFragment {
    return sqlFragment(`SELECT quota_id, item_id, variation_id, subevent_id, SUM(max_usages - redeemed)::int AS n
           FROM voucher
          WHERE event_id = ${eventId} AND block_quota AND redeemed < max_usages
            AND (valid_until IS NULL OR valid_until >= ${now})
          GROUP BY quota_id, item_id, variation_id, subevent_id`);
  }

  /**
   * One page of the event's vouchers (rows, then count). Filters `code`, `max_usages`, `redeemed`, `item`,
   * `variation`, `quota`, `subevent`, `block_quota`, `allow_ignore_quota`, `price_mode`, `tag`, `value`,
   * `active`, `search`; ordering `id` (default), `code`, `max_usages`, `valid_until`, `value`.
   * @throws ValidationFailed on malformed filters; NotFound "Invalid page."
   */
  async page(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<Voucher>> {
    const qb = em.getRepository(Voucher).createQueryBuilder('v').where('v.event_id = :event', { event: eventId });
    const code = filters.str('code');
    if (code !== undefined) qb.andWhere('upper(v.code) = upper(:code)', { code });
    for (const [param, column] of [
      ['max_usages', 'max_usages'],
      ['redeemed', 'redeemed'],
      ['item', 'item_id'],
      ['variation', 'variation_id'],
      ['quota', 'quota_id'],
      ['subevent', 'subevent_id'],
    ] as const) {
      const value = filters.int(param);
      if (value !== undefined) qb.andWhere(`v.${column} = :${param}`, { [param]: value });
    }
    for (const param of ['block_quota', 'allow_ignore_quota'] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`v.${param} = :${param}`, { [param]: value });
    }
    for (const param of ['price_mode', 'tag'] as const) {
      const value = filters.str(param);
      if (value !== undefined) qb.andWhere(`v.${param} = :${param}`, { [param]: value });
    }
    const value = filters.decimal('value');
    if (value !== undefined) qb.andWhere('v.value = CAST(:value AS numeric)', { value });
    const active = filters.bool('active');
    if (active !== undefined) {
      const condition = 'v.redeemed < v.max_usages AND (v.valid_until IS NULL OR v.valid_until >= :now)';
      qb.andWhere(active ? `(${condition})` : `NOT (${condition})`, { now: new Date() });
    }
    const pattern = filters.contains('search');
    if (pattern !== undefined) {
      qb.andWhere(
        '(upper(v.code) LIKE upper(:search) OR upper(v.tag) LIKE upper(:search) OR upper(v.comment) LIKE upper(:search))',
        {
          search: pattern,
        },
      );
    }
    applyOrdering(
      qb,
      filters,
      {
        id: 'v.id',
        code: 'v.code',
        max_usages: 'v.max_usages',
        valid_until: 'v.valid_until',
        value: 'v.value',
      },
      ['id'],
    );
    return paginate(qb, page, (rows) => rows);
  }

  /** Whether a voucher of the event other than `exceptId` has this code (case-insensitive); one statement. */
  async codeTaken(em: EntityManager, eventId: number, code: string, exceptId: number | null): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM voucher WHERE event_id = $1 AND upper(code) = upper($2) AND ($3::int IS NULL OR id <> $3::int)',
      [eventId, code, exceptId],
    );
    return rows.length > 0;
  }

  /** The upper-cased codes among `codes` that vouchers of the event use; one statement, none for no codes. */
  async takenCodes(em: EntityManager, eventId: number, codes: readonly string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows: { code: string }[] = await em.query(
      'SELECT upper(code) AS code FROM voucher WHERE event_id = $1 AND upper(code) = ANY($2)',
      [eventId, codes.map((c) => c.toUpperCase())],
    );
    return new Set(rows.map((r) => r.code));
  }

  /**
   * Adds `sign` × `counts[i]` redemptions and `sign` × `budgets[i]` (money strings) budget use to voucher
   * `ids[i]`, never below zero; one statement (row locks as any UPDATE).
   */
  async adjustRedemptions(
    em: EntityManager,
    ids: readonly number[],
    counts: readonly number[],
    budgets: readonly string[],
    sign: 1 | -1,
  ): Promise<void> {
    await em.query(
      `UPDATE voucher v SET redeemed = GREATEST(0, v.redeemed + $4 * u.n),
              budget_used = GREATEST(0, v.budget_used + $4 * u.b)
         FROM unnest($1::int[], $2::int[], $3::numeric[]) AS u(id, n, b)
        WHERE v.id = u.id`,
      [ids, counts, budgets, sign],
    );
  }

  /** Up to `limit` vouchers of the event with an id above `after`, in id order (an export batch); one statement. */
  async exportBatch(
    em: EntityManager,
    eventId: number,
    after: number,
    limit: number,
  ): Promise<VoucherExportRow[]> {
    return em.query(
      `SELECT id, code, max_usages, redeemed, valid_until, block_quota, price_mode, value::text AS value,
                item_id, variation_id, quota_id, subevent_id, tag, comment
           FROM voucher WHERE event_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [eventId, after, limit],
    );
  }
}
