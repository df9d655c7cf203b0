import { Module } from '@nestjs/common';
import { CartWritingModule } from './carts/cart-writing.module';
import { QuotaEngineModule } from './quota-engine/quota-engine.module';
import { SalesUsageModule } from './sales-usage/sales-usage.module';
import { SeatHoldsModule } from './seats/seat-holds.module';

/**
 * The orders context's answers to every port the catalogue declares (`CATALOGUE_PORTS`): quota availability
 * ({@link QuotaEngineModule}), voucher holds of carts ({@link CartWritingModule}), seats of vouchers
 * ({@link SeatHoldsModule}) and the usage of items, tax rules, discounts and membership types
 * ({@link SalesUsageModule}). `CatalogueModule.register` and `CatalogueSalesModule.register` take one module, so
 * `app.module.ts` and the orders' use cases hand them this one.
 */
@Module({
  imports: [QuotaEngineModule, CartWritingModule, SeatHoldsModule, SalesUsageModule],
  exports: [QuotaEngineModule, CartWritingModule, SeatHoldsModule, SalesUsageModule],
})
export class SalesPortsModule {}
