import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { VOUCHER_CART_HOLDS, VoucherCartHolds } from './voucher-cart-holds.port';
import { RedoProblem, redoProblem, SaleVoucher, VoucherUse } from './voucher-redemption.rules';
import { Voucher } from './voucher.entity';
import { VoucherQueries } from './voucher.queries';

/** A voucher with the live cart positions holding it: what a usage check under the lock reads. */
export interface VoucherInUse {
  voucher: SaleVoucher;
  inCarts: number;
}

/**
 * The one home of voucher redemptions (compat §3.23, §4.4): reading vouchers for a usage check under their row
 * locks, redeeming (`redeemed` + uses, `budget_used` + budget use) when an order takes them, giving them back
 * when an order is canceled, denied or deleted, and taking them again when it is revived. Vouchers are always
 * locked in id order, before any quota row (architecture.md "Concurrency"). Every write to `redeemed` and
 * `budget_used` goes through {@link adjust}. Live cart positions count as uses; they are counted through the
 * {@link VoucherCartHolds} port.
 */
@Injectable()
export class VoucherRedemptions {
  constructor(
    @Inject(VOUCHER_CART_HOLDS) private readonly holds: VoucherCartHolds,
    private readonly queries: VoucherQueries,
  ) {}

  /**
   * Vouchers by id (any event: callers pass ids they resolved within their event), in id order; `lock` takes
   * the rows `FOR UPDATE` until the transaction ends. One statement.
   */
  async read(em: EntityManager, ids: readonly number[], lock: boolean): Promise<Map<number, SaleVoucher>> {
    if (ids.length === 0) return new Map();
    const rows = await em.find(Voucher, {
      where: { id: In([...new Set(ids)]) },
      order: { id: 'ASC' },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return new Map(rows.map((v) => [v.id, v]));
  }

  /**
   * Vouchers by id with the live cart positions holding each (all carts, except the cart positions in
   * `exceptCartPositions`): the state of a usage check. Two statements.
   */
  async inUse(
    em: EntityManager,
    ids: readonly number[],
    options: { now: Date; lock: boolean; exceptCartPositions?: readonly number[] },
  ): Promise<Map<number, VoucherInUse>> {
    const vouchers = await this.read(em, ids, options.lock);
    if (vouchers.size === 0) return new Map();
    const inCarts = await this.holds.count(
      em,
      [...vouchers.keys()],
      options.now,
      options.exceptCartPositions,
    );
    return new Map([...vouchers].map(([id, voucher]) => [id, { voucher, inCarts: inCarts.get(id) ?? 0 }]));
  }

  /** Redeems the uses of a new order; the caller holds the vouchers' locks (from {@link inUse}). One statement. */
  async redeem(em: EntityManager, uses: ReadonlyMap<number, VoucherUse>): Promise<void> {
    await this.adjust(em, uses, 1);
  }

  /** Gives back the uses of a canceled, denied or deleted order (never below zero); locks, then one update. */
  async release(em: EntityManager, uses: ReadonlyMap<number, VoucherUse>): Promise<void> {
    if (uses.size === 0) return;
    await this.read(em, [...uses.keys()], true);
    await this.adjust(em, uses, -1);
  }

  /**
   * Takes the uses of a revived order again: locks the vouchers, checks each (its uses beside the redemptions
   * and live carts, its budget use against the budget) and redeems them. A voucher deleted since the order was
   * placed is gone from the positions too (foreign key SET NULL): nothing to redo for it.
   * @returns the vouchers as they were before, and the first problem (nothing is written then)
   */
  async redo(
    em: EntityManager,
    uses: ReadonlyMap<number, VoucherUse>,
    now: Date,
  ): Promise<{ vouchers: Map<number, SaleVoucher>; problem: RedoProblem | null }> {
    const state = await this.inUse(em, [...uses.keys()], { now, lock: true });
    const vouchers = new Map([...state].map(([id, s]) => [id, s.voucher]));
    for (const { voucher, inCarts } of state.values()) {
      const problem = redoProblem(voucher, uses.get(voucher.id)!, inCarts);
      if (problem) return { vouchers, problem };
    }
    await this.adjust(em, new Map([...uses].filter(([id]) => state.has(id))), 1);
    return { vouchers, problem: null };
  }

  /** Adds (`sign` 1) or removes (`sign` -1) redemptions and budget use, never below zero; one statement. */
  private async adjust(
    em: EntityManager,
    uses: ReadonlyMap<number, VoucherUse>,
    sign: 1 | -1,
  ): Promise<void> {
    if (uses.size === 0) return;
    const ids = [...uses.keys()].sort((a, b) => a - b);
    await this.queries.adjustRedemptions(
      em,
      ids,
      ids.map((id) => uses.get(id)!.count),
      ids.map((id) => uses.get(id)!.budget.toFixed(2)),
      sign,
    );
  }
}
