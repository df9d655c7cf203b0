import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderPayments } from './order-payments.service';

/**
 * The payments of orders ({@link OrderPayments}, compat §4.4 `payments`): the payment of a new order and the payment
 * state changes of the order actions. Used by order creation and the order actions.
 */
@Module({
  imports: [AuditModule, OrderWritingModule],
  providers: [OrderPayments],
  exports: [OrderPayments],
})
export class OrderPaymentsModule {}
