import { Module } from '@nestjs/common';
import { QuotasModule } from '../catalogue/quotas/quotas.module';
import { CartPositionsController } from './cart-positions.controller';
import { CartPositionsService } from './cart-positions.service';

/**
 * Sales: cart positions (`E/cartpositions/`: create, bulk_create, list, get, delete). Their expiry is purged by
 * the scheduler tick (`cart-expiry.ts`). Quota reservations come from the catalogue's QuotasModule; the quota
 * engine and the presentation from the global OrdersModule.
 */
@Module({
  imports: [QuotasModule],
  controllers: [CartPositionsController],
  providers: [CartPositionsService],
})
export class CartsModule {}
