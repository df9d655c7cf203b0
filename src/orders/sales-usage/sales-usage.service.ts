import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DiscountUsage } from '../../catalogue/discounts/discount-usage.port';
import type { ItemUsage } from '../../catalogue/items/item-usage.port';
import type { TaxRuleUsage } from '../../catalogue/tax-rules/tax-rule-usage.port';
import type { EventUsage } from '../../organizers/event-usage.port';
import type { SalesChannelOrders } from '../../organizers/sales-channels/sales-channel-usage.port';
import { CartWriter } from '../carts/cart-writer';
import { SalesUsageQueries } from './sales-usage.queries';

/**
 * The sales side's answers to the catalogue's "is this in use?" ports: an ordered item, variation, tax rule or
 * discount, or an event with orders, cannot be deleted (compat §3.10, §3.11, §3.19, §3.25, §4.2). Canceled
 * positions count too: they are part of the order history.
 */
@Injectable()
export class SalesUsage implements ItemUsage, EventUsage, TaxRuleUsage, SalesChannelOrders {
  constructor(
    private readonly carts: CartWriter,
    private readonly queries: SalesUsageQueries,
  ) {}

  /** Item: any order position. */
  async isOrdered(em: EntityManager, id: number): Promise<boolean> {
    return this.queries.itemOrdered(em, id);
  }

  /** Cart positions of an item (and add-ons to them, by the key) are deleted with it. */
  async releaseCarts(em: EntityManager, itemId: number): Promise<void> {
    await this.carts.deleteOfItem(em, itemId);
  }

  async isVariationInUse(em: EntityManager, variationId: number): Promise<boolean> {
    return this.queries.variationInUse(em, variationId);
  }

  async hasOrders(em: EntityManager, eventId: number): Promise<boolean> {
    return this.queries.eventHasOrders(em, eventId);
  }

  async subeventHasOrders(em: EntityManager, subeventId: number): Promise<boolean> {
    return this.queries.subeventHasOrders(em, subeventId);
  }

  /** Sales channel: any order of the organizer placed through it. */
  async channelHasOrders(em: EntityManager, organizerId: number, identifier: string): Promise<boolean> {
    return this.queries.channelHasOrders(em, organizerId, identifier);
  }

  /** Tax rule: order positions or fees. */
  async isUsed(em: EntityManager, taxRuleId: number): Promise<boolean> {
    return this.queries.taxRuleUsed(em, taxRuleId);
  }
}

/** Discount usage (a separate class: its `isOrdered` looks at discounts, not items). */
@Injectable()
export class DiscountSalesUsage implements DiscountUsage {
  constructor(private readonly queries: SalesUsageQueries) {}

  async isOrdered(em: EntityManager, discountId: number): Promise<boolean> {
    return this.queries.discountOrdered(em, discountId);
  }

  /** Cart positions do not keep discounts; nothing to detach. */
  async releaseCarts(): Promise<void> {}
}
