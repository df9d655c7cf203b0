import { Module } from '@nestjs/common';
import { OrderTransactionLog } from './order-transaction-log';

/** The order transaction log writer ({@link OrderTransactionLog}), for every use case that changes what orders sell. */
@Module({
  providers: [OrderTransactionLog],
  exports: [OrderTransactionLog],
})
export class OrderTransactionsCoreModule {}
