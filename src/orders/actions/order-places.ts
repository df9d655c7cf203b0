import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { productKey, QuotaLookup } from '../../catalogue/quotas/quota-lookup.service';
import {
  noQuotaMessage,
  QuotaExceeded,
  QuotaReservations,
} from '../../catalogue/quotas/quota-reservations.service';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import type { SaleVoucher } from '../../catalogue/vouchers/voucher-redemption.rules';
import { voucherUses } from '../../catalogue/vouchers/voucher-redemption.rules';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import { i18nText } from '../../common/values/i18n';
import { OrderPosition } from '../entities/order-position.entity';
import type { Order } from '../entities/order.entity';
import type { OrderActor } from '../writing/order-log';
import { ActionRefused, placesNeeded, revivedProducts } from './order-actions.rules';

/**
 * The quota places of a revived order (compat §4.4 "Actions"; pretix's quota re-check when an expired order is
 * paid): shared by the order actions (`mark_paid`, `extend`, `reactivate`) and the payment confirmation.
 */
@Injectable()
export class OrderPlaces {
  constructor(
    private readonly catalogue: SalesCatalogue,
    private readonly quotaLookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
    private readonly redemptions: VoucherRedemptions,
  ) {}

  /**
   * The order's positions: the active ones, or (`withOrder`) those the order's cancel canceled, which `reactivate`
   * revives (`canceled_with_order`; a position canceled on its own stays canceled).
   */
  positionsOf(em: EntityManager, order: Order, withOrder: boolean): Promise<OrderPosition[]> {
    return em.find(OrderPosition, {
      where: withOrder
        ? { orderId: order.id, canceled: true, canceledWithOrder: true }
        : { orderId: order.id, canceled: false },
      order: { positionid: 'ASC', id: 'ASC' },
    });
  }

  /**
   * An expired order takes the places of its active positions again (its vouchers stayed redeemed).
   * @throws ActionRefused as {@link reserve}
   */
  async reviveExpired(em: EntityManager, actor: OrderActor, order: Order): Promise<void> {
    const positions = await this.positionsOf(em, order, false);
    const vouchers = await this.redemptions.read(em, [...voucherUses(positions).keys()], false);
    await this.reserve(em, actor, positions, vouchers);
  }

  /**
   * Reserves one place per position on every quota of its product (positions with an `allow_ignore_quota`
   * voucher need none), locking only those quotas.
   * @throws ActionRefused `The product "X" is not assigned to a quota.` or the quota-exceeded message
   */
  async reserve(
    em: EntityManager,
    actor: OrderActor,
    positions: OrderPosition[],
    vouchers: ReadonlyMap<number, SaleVoucher>,
  ): Promise<void> {
    const ignoresQuota = (id: number) => vouchers.get(id)?.allowIgnoreQuota === true;
    const products = revivedProducts(positions, ignoresQuota);
    const quotasByProduct = await this.quotaLookup.forProducts(em, actor.event.id, products);
    const unassigned = products.find((p) => quotasByProduct.get(productKey(p))!.length === 0);
    if (unassigned) {
      const names = await this.catalogue.itemNames(em, [unassigned.itemId]);
      throw new ActionRefused(noQuotaMessage(i18nText(names.get(unassigned.itemId))));
    }
    const needed = placesNeeded(positions, quotasByProduct, ignoresQuota);
    if (needed.size === 0) return;
    try {
      await this.reservations.reserve(em, actor, [...needed.keys()], needed);
    } catch (err) {
      if (err instanceof QuotaExceeded) throw new ActionRefused(err.message);
      throw err;
    }
  }
}
