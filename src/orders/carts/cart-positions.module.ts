import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { SalesPortsModule } from '../sales-ports.module';
import { SeatHoldsModule } from '../seats/seat-holds.module';
import { CartPosition } from './cart-position.entity';
import { CartPositionsController } from './cart-positions.controller';
import { CartPositionsService } from './cart-positions.service';
import { CartWritingModule } from './cart-writing.module';
import { CartPositionQueries } from './cart-position.queries';
import { CartAddons } from './cart-addons';

/**
 * API cart positions over HTTP (compat §3.2; {@link CartPositionsController}): quota reservations and voucher
 * redemptions from the catalogue's `CatalogueSalesModule`, wired to {@link SalesPortsModule}; seats from
 * {@link SeatHoldsModule}.
 */
@Module({
  imports: [
    AuditModule,
    TenancyModule,
    CatalogueSalesModule.register(SalesPortsModule),
    CartWritingModule,
    OrderPresentationModule,
    SeatHoldsModule,
    TypeOrmModule.forFeature([CartPosition]),
  ],
  controllers: [CartPositionsController],
  providers: [CartPositionsService, CartPositionQueries, CartAddons],
})
export class CartPositionsModule {}
