import { Module } from '@nestjs/common';
import { DISCOUNT_USAGE } from '../catalogue/discounts/discount-usage.port';
import { ITEM_USAGE } from '../catalogue/items/item-usage.port';
import { MEMBERSHIP_TYPE_USAGE } from '../catalogue/membership-types/membership-type-usage.port';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { TAX_RULE_USAGE } from '../catalogue/tax-rules/tax-rule-usage.port';
import { VOUCHER_CART_HOLDS } from '../catalogue/vouchers/voucher-cart-holds.port';
import { VOUCHER_SEATS } from '../catalogue/vouchers/voucher-seats.port';
import { EVENT_USAGE } from '../organizers/event-usage.port';
import { TenancyModule } from '../organizers/tenancy.module';
import { CartVoucherHolds } from './carts/cart-voucher-holds';
import { CartWriter } from './carts/cart-writer';
import { CheckinPositions } from './checkin-seam/checkin-positions';
import { OrderExpiry } from './actions/order-expiry';
import { OrderHooks } from './writing/order-hooks';
import { OrderReads } from './presentation/order-reads.service';
import { OrderExportRows } from './presentation/order-export-rows';
import { OrderPayments } from './payments/order-payments.service';
import { OrderPositionReads } from './presentation/order-position-reads.service';
import { OrderPresentation } from './presentation/order-presentation.service';
import { OrderWriter } from './writing/order-writer';
import { QuotaEngineModule } from './quota-engine/quota-engine.module';
import { DiscountSalesUsage, MembershipSalesUsage, SalesUsage } from './sales-usage/sales-usage.service';
import { AuditModule } from '../audit/audit.module';
import { SEAT_HOLDERS } from '../seating/seat-holders.port';
import { SeatSalesModule } from '../seating/seat-sales.module';
import { SeatHolds } from './seats/seat-holds';

/**
 * The orders context's core, without HTTP: the writers of orders and carts, the expiry of pending orders, payments, the presentation, the
 * quota engine (re-exported {@link QuotaEngineModule}), the reads of order positions and orders for the contexts above (gift cards, media, invoices), the
 * order status hooks ({@link OrderHooks}, which the invoices context registers with), and the answers to the
 * ports the catalogue and the tenancy roots declare (quota availability,
 * voucher holds of carts, usage of items, events, tax rules, discounts, membership types; the seating
 * context's seat holders). `app.module.ts` hands
 * this module to `CatalogueModule.register` and `OrganizersModule.register`; it depends only on the catalogue's
 * port-free reads, so no cycle arises. Not global: whoever needs it imports it (the worker does, for the expiry of pending orders).
 */
@Module({
  imports: [AuditModule, CatalogueReadsModule, TenancyModule, SeatSalesModule, QuotaEngineModule],
  providers: [
    OrderWriter,
    OrderExpiry,
    OrderExportRows,
    OrderPayments,
    OrderPresentation,
    OrderPositionReads,
    OrderHooks,
    OrderReads,
    CartWriter,
    CheckinPositions,
    CartVoucherHolds,
    SalesUsage,
    DiscountSalesUsage,
    MembershipSalesUsage,
    SeatHolds,
    { provide: SEAT_HOLDERS, useExisting: SeatHolds },
    { provide: VOUCHER_SEATS, useExisting: SeatHolds },
    { provide: VOUCHER_CART_HOLDS, useExisting: CartVoucherHolds },
    { provide: ITEM_USAGE, useExisting: SalesUsage },
    { provide: EVENT_USAGE, useExisting: SalesUsage },
    { provide: TAX_RULE_USAGE, useExisting: SalesUsage },
    { provide: DISCOUNT_USAGE, useExisting: DiscountSalesUsage },
    { provide: MEMBERSHIP_TYPE_USAGE, useExisting: MembershipSalesUsage },
  ],
  exports: [
    SEAT_HOLDERS,
    VOUCHER_SEATS,
    SeatHolds,
    SeatSalesModule,
    QuotaEngineModule,
    VOUCHER_CART_HOLDS,
    ITEM_USAGE,
    EVENT_USAGE,
    TAX_RULE_USAGE,
    DISCOUNT_USAGE,
    MEMBERSHIP_TYPE_USAGE,
    OrderWriter,
    OrderExpiry,
    OrderExportRows,
    OrderPayments,
    OrderPresentation,
    OrderPositionReads,
    OrderHooks,
    OrderReads,
    CartWriter,
    CheckinPositions,
  ],
})
export class OrdersCoreModule {}
