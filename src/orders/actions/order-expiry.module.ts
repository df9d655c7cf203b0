import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderExpiry } from './order-expiry';
import { OrderStatusQueries } from './order-status.queries';

/**
 * The expiry of pending orders past their payment term ({@link OrderExpiry}): run by the worker's scheduler tick
 * and, for one order, by the order actions. No HTTP.
 */
@Module({
  imports: [AuditModule, OrderWritingModule],
  providers: [OrderExpiry, OrderStatusQueries],
  exports: [OrderExpiry],
})
export class OrderExpiryModule {}
