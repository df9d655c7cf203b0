import { Module } from '@nestjs/common';
import { OrderTransactionLog } from './order-transaction-log';
import { OrderTransactionQueries } from './order-transaction.queries';

/** The order transaction log writer ({@link OrderTransactionLog}), for every use case that changes what orders sell. */
@Module({
  providers: [OrderTransactionLog, OrderTransactionQueries],
  exports: [OrderTransactionLog],
})
export class OrderTransactionsCoreModule {}
