import { Module } from '@nestjs/common';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { SalesPortsModule } from '../sales-ports.module';
import { OrderPlaces } from './order-places';

/** {@link OrderPlaces}: the quota places of revived orders, for the order actions and the payment endpoints. */
@Module({
  imports: [CatalogueSalesModule.register(SalesPortsModule)],
  providers: [OrderPlaces],
  exports: [OrderPlaces],
})
export class OrderPlacesModule {}
