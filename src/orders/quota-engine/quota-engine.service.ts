import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  availabilityOf,
  AvailabilityOptions,
  CountedQuota,
  QuotaAvailability,
  QuotaAvailabilityResult,
} from '../../catalogue/quotas/quota-availability';
import { BlockingRow, VoucherBlocking } from '../../catalogue/vouchers/voucher-blocking.service';
import { VoucherQueries } from '../../catalogue/vouchers/voucher.queries';
import { preparedQuery } from '../../common/persistence/prepared';
import { WaitingListQueries } from '../../waitinglist/waiting-list.queries';
import { ProductSales, ProductWaiting, sumQuotaCounts } from './quota-engine.rules';

/**
 * A row of the engine's statement: sales of a product (`s`), what blocking vouchers hold (`b`), or open waiting
 * list entries of a product (`w`, with `countWaitingList` only; their number in `n`).
 */
type EngineRow =
  ({ kind: 's' } & ProductSales) | ({ kind: 'b' } & BlockingRow) | ({ kind: 'w' } & ProductWaiting);

/**
 * What {@link QuotaEngine.figures} answers: the availability of each quota, and the occupation of each product
 * the quotas count (item, variation, sub-event): paid, pending and exited positions from the maintained counts,
 * live cart positions (`carts`; those holding a blocking voucher left out, as on the quotas).
 */
export interface EngineFigures {
  quotas: Map<number, QuotaAvailabilityResult>;
  products: Omit<ProductSales, 'voucher_id'>[];
}

/**
 * The quota engine: how full each quota is (spec "Quota"; compat §3.14), in ONE SQL statement (one round trip,
 * one snapshot) for any number of quotas, combining two parts:
 * 1. the maintained counts of paid and pending order positions (not canceled) and of the paid ones whose last
 *    successful scan was an exit (they free their place on quotas with `release_after_exit`), per product of the
 *    quotas asked about (table `product_sales`, kept by triggers: the cost does not grow with the positions of the
 *    event), and live cart positions (`expires` not passed; few, through the index on product and expiry) per
 *    product and voucher;
 * 2. the places blocking vouchers hold per quota, and which vouchers of those cart positions block quota (their
 *    positions do not count: the voucher already holds the place); this part's SQL comes from the vouchers'
 *    owner ({@link VoucherBlocking.placesSql}).
 * The products of each quota come with it ({@link CountedQuota}): the engine reads only the orders' tables.
 * Called under quota locks, the statement starts after they are granted, so it sees every reservation committed
 * before (READ COMMITTED).
 */
@Injectable()
export class QuotaEngine implements QuotaAvailability {
  private sql?: string;
  private sqlWithWaitingList?: string;

  constructor(private readonly blocking: VoucherBlocking) {}

  async compute(
    em: EntityManager,
    quotas: readonly CountedQuota[],
    options: AvailabilityOptions = {},
  ): Promise<Map<number, QuotaAvailabilityResult>> {
    return (await this.run(em, quotas, options)).quotas;
  }

  /**
   * The availability of `quotas` (as {@link compute}, without the waiting list) and the occupation of their
   * products, from the same statement (README "Live figures", `E/stats/`).
   */
  figures(em: EntityManager, quotas: readonly CountedQuota[]): Promise<EngineFigures> {
    return this.run(em, quotas, {});
  }

  private async run(
    em: EntityManager,
    quotas: readonly CountedQuota[],
    options: AvailabilityOptions,
  ): Promise<EngineFigures> {
    const result = new Map<number, QuotaAvailabilityResult>();
    if (quotas.length === 0) return { quotas: result, products: [] };
    const eventIds = [...new Set(quotas.map((q) => q.eventId))];
    const now = options.now ?? new Date();
    const items = [...new Set(quotas.flatMap((q) => q.itemIds))];
    const variations = [...new Set(quotas.flatMap((q) => q.variationIds))];
    const sql = options.countWaitingList
      ? (this.sqlWithWaitingList ??= this.statement(true))
      : (this.sql ??= this.statement(false));
    const rows = await preparedQuery<EngineRow>(em, sql, [
      eventIds,
      items,
      variations,
      now,
      [...(options.excludeCartIds ?? [])],
      quotas.map((q) => q.id),
      options.excludeVoucherId ?? null,
    ]);
    const sales: ProductSales[] = [];
    const held: BlockingRow[] = [];
    const waiting: ProductWaiting[] = [];
    for (const row of rows) {
      if (row.kind === 's') sales.push(row);
      else if (row.kind === 'w') waiting.push(row);
      else held.push(row);
    }
    const blocking = this.blocking.read(held);
    const counts = sumQuotaCounts(quotas, sales, blocking.placesByQuota, blocking.blocking, waiting);
    for (const quota of quotas) result.set(quota.id, availabilityOf(quota, counts.get(quota.id)!));
    return { quotas: result, products: productsOf(sales, blocking.blocking) };
  }

  /**
   * The engine's statement (built once; run prepared, as planning it costs more than running it). Parameters:
   * $1 event ids, $2 item ids, $3 variation ids, $4 now, $5 cart ids left out, $6 quota ids, $7 voucher left out.
   * With `waitingList`, the open waiting list entries of the products are added as `w` rows (their SQL comes from
   * the waiting list's owner, {@link WaitingListQueries.waitingCounts}).
   */
  private statement(waitingList: boolean): string {
    const waitingSql = waitingList
      ? `
       UNION ALL
       SELECT 'w', wl.item_id, wl.variation_id, wl.subevent_id, NULL, 0, 0, 0, 0, NULL, wl.n
         FROM (${WaitingListQueries.waitingCounts({ eventIds: '$1::int[]', itemIds: '$2::int[]', variationIds: '$3::int[]' })}) wl`
      : '';
    const blockingSql = VoucherQueries.blockingPlaces({
      quotaIds: '$6::int[]',
      eventIds: '$1::int[]',
      now: '$4::timestamptz',
      excludeVoucherId: '$7::int',
      among: 'ARRAY(SELECT s.voucher_id FROM sales s WHERE s.voucher_id IS NOT NULL)',
    });
    return `WITH sales AS (
         SELECT ps.item_id, ps.variation_id, ps.subevent_id, NULL::int AS voucher_id,
                ps.paid, ps.pending, ps.exited, 0 AS carts
           FROM product_sales ps
          WHERE ps.event_id = ANY($1::int[])
            AND (ps.variation_id = ANY($3::int[]) OR (ps.variation_id IS NULL AND ps.item_id = ANY($2::int[])))
         UNION ALL
         SELECT cp.item_id, cp.variation_id, cp.subevent_id, cp.voucher_id, 0, 0, 0, COUNT(*)::int
           FROM cart_position cp
          WHERE cp.event_id = ANY($1::int[]) AND cp.expires >= $4::timestamptz AND NOT (cp.cart_id = ANY($5::text[]))
            AND (cp.variation_id = ANY($3::int[]) OR (cp.variation_id IS NULL AND cp.item_id = ANY($2::int[])))
          GROUP BY cp.item_id, cp.variation_id, cp.subevent_id, cp.voucher_id
       )
       SELECT 's' AS kind, s.item_id, s.variation_id, s.subevent_id, s.voucher_id, s.paid, s.pending, s.exited,
              s.carts, NULL::int AS quota_id, NULL::int AS n
         FROM sales s
       UNION ALL
       SELECT 'b', NULL, NULL, NULL, b.voucher_id, 0, 0, 0, 0, b.quota_id, b.n
         FROM (${blockingSql}) b${waitingSql}`;
  }
}

/** Sales rows summed per product (cart rows are per voucher too); carts of blocking vouchers left out. */
function productsOf(sales: readonly ProductSales[], blocking: ReadonlySet<number>): EngineFigures['products'] {
  const out = new Map<string, EngineFigures['products'][number]>();
  for (const row of sales) {
    const key = `${row.item_id}/${row.variation_id ?? ''}/${row.subevent_id ?? ''}`;
    let product = out.get(key);
    if (!product) {
      product = { ...row, paid: 0, pending: 0, exited: 0, carts: 0 };
      delete (product as Partial<ProductSales>).voucher_id;
      out.set(key, product);
    }
    product.paid += row.paid;
    product.pending += row.pending;
    product.exited += row.exited;
    if (row.voucher_id === null || !blocking.has(row.voucher_id)) product.carts += row.carts;
  }
  return [...out.values()];
}
