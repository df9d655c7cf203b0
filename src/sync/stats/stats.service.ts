import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QuotaAvailabilityResult } from '../../catalogue/quotas/quota-availability';
import { EventQuota, QuotaLookup } from '../../catalogue/quotas/quota-lookup.service';
import type { Event } from '../../organizers/event.entity';
import { EngineFigures, QuotaEngine } from '../../orders/quota-engine/quota-engine.service';
import type { EventStatsJson, StatsOrdersJson, StatsProductJson, StatsQuotaJson } from './stats.presenter';
import { CounterRow, StatsQueries } from './stats.queries';

type EngineProduct = EngineFigures['products'][number];

const ORDER_STATUSES = ['n', 'p', 'e', 'c'] as const;

/**
 * The live figures of an event (README "Live figures"; `GET E/stats/` and its stream), in three statements
 * whatever the size of the event, none of them a scan of its positions:
 * 1. its quotas with their products (catalogue, {@link QuotaLookup.ofEvent});
 * 2. the quota engine over them ({@link QuotaEngine.figures}): per quota paid, pending, exited, live carts and
 *    blocking vouchers from the maintained per-product counts, and the same per product;
 * 3. the maintained order totals and check-in list counts and the places blocking vouchers hold per target
 *    ({@link StatsQueries}); it runs beside 2 on another pooled connection.
 * Live cart positions and blocking vouchers are read through their indexes rather than counted by triggers:
 * they stop counting when time passes (`expires`, `valid_until`), which no write announces.
 */
@Injectable()
export class StatsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly lookup: QuotaLookup,
    private readonly engine: QuotaEngine,
    private readonly queries: StatsQueries,
  ) {}

  /** The figures of `event` (of date `subeventId` only, when given). */
  async figures(event: Event, subeventId: number | null): Promise<EventStatsJson> {
    const em = this.db.manager;
    const now = new Date();
    const [quotas, counters] = await Promise.all([
      this.lookup.ofEvent(em, event.id, subeventId),
      this.queries.counters(em, event.id, subeventId, now),
    ]);
    const engine = await this.engine.figures(em, quotas);
    const products = engine.products.filter((p) => subeventId === null || p.subevent_id === subeventId);
    return {
      event: event.slug,
      subevent: subeventId,
      quotas: quotas.map((q) => quotaJson(q, engine.quotas.get(q.id)!)),
      items: productsJson(quotas, engine.quotas, products, counters, subeventId),
      orders: ordersJson(counters),
      checkin_lists: counters
        .filter((r) => r.kind === 'l')
        .map((r) => ({ id: r.id!, checked_in: r.a, inside: r.b }))
        .sort((a, b) => a.id - b.id),
    };
  }
}

function quotaJson(q: EventQuota, a: QuotaAvailabilityResult): StatsQuotaJson {
  return {
    id: q.id,
    name: q.name,
    subevent: q.subeventId,
    size: q.size,
    paid: a.paid_orders,
    pending: a.pending_orders,
    in_carts: a.cart_positions,
    blocking_vouchers: a.blocking_vouchers,
    exited: a.exited_orders,
    available: a.available_number,
  };
}

function ordersJson(counters: readonly CounterRow[]): StatsOrdersJson {
  const out = Object.fromEntries(
    ORDER_STATUSES.map((s) => [s, { count: 0, total: '0.00' }]),
  ) as unknown as StatsOrdersJson;
  for (const r of counters) {
    if (r.kind === 'o' && (ORDER_STATUSES as readonly string[]).includes(r.status!)) {
      out[r.status as keyof StatsOrdersJson] = { count: r.a, total: r.total ?? '0.00' };
    }
  }
  return out;
}

interface ProductAcc {
  item: number;
  variation: number | null;
  quotas: Set<number>;
  paid: number;
  pending: number;
  in_carts: number;
}

/**
 * Per product (item without variation, or variation): the products the quotas count and those with sales,
 * summed over dates unless one was asked for; `available` the minimum over its quotas (null when all are
 * unlimited, 0 without quota), `blocking_vouchers` the places held by vouchers of its quotas, its item or its
 * variation.
 */
function productsJson(
  quotas: readonly EventQuota[],
  availability: ReadonlyMap<number, QuotaAvailabilityResult>,
  sales: readonly EngineProduct[],
  counters: readonly CounterRow[],
  subeventId: number | null,
): StatsProductJson[] {
  const byKey = new Map<string, ProductAcc>();
  const product = (item: number, variation: number | null): ProductAcc => {
    const key = `${item}/${variation ?? ''}`;
    let p = byKey.get(key);
    if (!p) {
      p = { item, variation, quotas: new Set(), paid: 0, pending: 0, in_carts: 0 };
      byKey.set(key, p);
    }
    return p;
  };
  const quotasOfItem = new Map<number, number[]>();
  const quotasOfVariation = new Map<number, number[]>();
  for (const q of quotas) {
    q.variationIds.forEach((v, i) => {
      product(q.variationItemIds[i], v).quotas.add(q.id);
      quotasOfVariation.set(v, [...(quotasOfVariation.get(v) ?? []), q.id]);
    });
    const withVariations = new Set(q.variationItemIds);
    for (const item of q.itemIds) {
      quotasOfItem.set(item, [...(quotasOfItem.get(item) ?? []), q.id]);
      if (!withVariations.has(item)) product(item, null).quotas.add(q.id);
    }
  }
  for (const s of sales) {
    const p = product(s.item_id, s.variation_id);
    const own = s.variation_id === null ? quotasOfItem.get(s.item_id) : quotasOfVariation.get(s.variation_id);
    for (const id of own ?? []) p.quotas.add(id);
    p.paid += s.paid;
    p.pending += s.pending;
    p.in_carts += s.carts;
  }
  const vouchers = counters.filter(
    (r) => r.kind === 'v' && (subeventId === null || r.subevent_id === null || r.subevent_id === subeventId),
  );
  return [...byKey.values()]
    .sort((a, b) => a.item - b.item || (a.variation ?? 0) - (b.variation ?? 0))
    .map((p) => ({
      item: p.item,
      variation: p.variation,
      paid: p.paid,
      pending: p.pending,
      in_carts: p.in_carts,
      blocking_vouchers: vouchers
        .filter((v) =>
          v.id !== null
            ? p.quotas.has(v.id)
            : v.item_id === p.item && (v.variation_id === null || v.variation_id === p.variation),
        )
        .reduce((n, v) => n + v.a, 0),
      available: minimumAvailable(p.quotas, availability),
    }));
}

function minimumAvailable(
  quotaIds: ReadonlySet<number>,
  availability: ReadonlyMap<number, QuotaAvailabilityResult>,
): number | null {
  if (quotaIds.size === 0) return 0;
  let min: number | null = null;
  for (const id of quotaIds) {
    const n = availability.get(id)?.available_number ?? null;
    if (n !== null) min = min === null ? n : Math.min(min, n);
  }
  return min;
}
