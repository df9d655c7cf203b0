import { Module } from '@nestjs/common';
import { DISCOUNT_USAGE } from '../../catalogue/discounts/discount-usage.port';
import { ITEM_USAGE } from '../../catalogue/items/item-usage.port';
import { MEMBERSHIP_TYPE_USAGE } from '../../catalogue/membership-types/membership-type-usage.port';
import { TAX_RULE_USAGE } from '../../catalogue/tax-rules/tax-rule-usage.port';
import { EVENT_USAGE } from '../../organizers/event-usage.port';
import { SALES_CHANNEL_ORDERS } from '../../organizers/sales-channels/sales-channel-usage.port';
import { CartWritingModule } from '../carts/cart-writing.module';
import { CustomersCoreModule } from '../../customers/customers-core.module';
import { MembershipUsage } from '../../customers/customer-reads.service';
import { DiscountSalesUsage, SalesUsage } from './sales-usage.service';
import { SalesUsageQueries } from './sales-usage.queries';

/**
 * The sales side's answers to the "is this in use?" ports (compat §3.10, §3.11, §3.19, §3.25, §4.2): the
 * catalogue's `ITEM_USAGE`, `TAX_RULE_USAGE`, `DISCOUNT_USAGE`, `MEMBERSHIP_TYPE_USAGE` and the tenancy roots'
 * `EVENT_USAGE` and `SALES_CHANNEL_ORDERS`. `MEMBERSHIP_TYPE_USAGE` is the customers context's answer
 * ({@link MembershipUsage}: memberships of customers), mapped here because this module is the one handed to the
 * catalogue. `app.module.ts` hands it to `OrganizersModule.register` (and, within `SalesPortsModule`,
 * to `CatalogueModule.register`).
 */
@Module({
  imports: [CartWritingModule, CustomersCoreModule],
  providers: [
    SalesUsage,
    SalesUsageQueries,
    DiscountSalesUsage,
    { provide: ITEM_USAGE, useExisting: SalesUsage },
    { provide: EVENT_USAGE, useExisting: SalesUsage },
    { provide: SALES_CHANNEL_ORDERS, useExisting: SalesUsage },
    { provide: TAX_RULE_USAGE, useExisting: SalesUsage },
    { provide: DISCOUNT_USAGE, useExisting: DiscountSalesUsage },
    { provide: MEMBERSHIP_TYPE_USAGE, useExisting: MembershipUsage },
  ],
  exports: [
    ITEM_USAGE,
    EVENT_USAGE,
    SALES_CHANNEL_ORDERS,
    TAX_RULE_USAGE,
    DISCOUNT_USAGE,
    MEMBERSHIP_TYPE_USAGE,
  ],
})
export class SalesUsageModule {}
