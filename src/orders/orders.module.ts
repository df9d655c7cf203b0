import { Global, Module } from '@nestjs/common';
import { DISCOUNT_USAGE } from '../catalogue/discounts/discounts.service';
import { ITEM_USAGE } from '../catalogue/items/item-usage';
import { QUOTA_AVAILABILITY } from '../catalogue/quotas/quota-availability';
import { TAX_RULE_USAGE } from '../catalogue/tax-rules/tax-rules.service';
import { EVENT_USAGE } from '../organizers/events.service';
import { OrganizersModule } from '../organizers/organizers.module';
import { OrderPresentation } from './order-presentation.service';
import { QuotaEngine } from './quota-engine.service';
import { DiscountSalesUsage, SalesUsage } from './sales-usage.service';

/**
 * The sales side: the quota engine, the presentation of orders and carts, and the answers to the catalogue's
 * usage ports. Global so that the catalogue and the tenancy roots can inject the ports they declare without
 * importing this module (architecture.md "Layout").
 */
@Global()
@Module({
  imports: [OrganizersModule],
  providers: [
    QuotaEngine,
    OrderPresentation,
    SalesUsage,
    DiscountSalesUsage,
    { provide: QUOTA_AVAILABILITY, useExisting: QuotaEngine },
    { provide: ITEM_USAGE, useExisting: SalesUsage },
    { provide: EVENT_USAGE, useExisting: SalesUsage },
    { provide: TAX_RULE_USAGE, useExisting: SalesUsage },
    { provide: DISCOUNT_USAGE, useExisting: DiscountSalesUsage },
  ],
  exports: [
    QUOTA_AVAILABILITY,
    ITEM_USAGE,
    EVENT_USAGE,
    TAX_RULE_USAGE,
    DISCOUNT_USAGE,
    QuotaEngine,
    OrderPresentation,
  ],
})
export class OrdersModule {}
