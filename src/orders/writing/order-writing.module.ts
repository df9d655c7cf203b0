import { Module } from '@nestjs/common';
import { OrderHooks } from './order-hooks';
import { OrderWriter } from './order-writer';
import { AnswerQueries } from '../answers/answer.queries';
import { OrderWriterQueries } from './order-writer.queries';
import { OrderTransactionsCoreModule } from '../transactions/order-transactions-core.module';

/**
 * The shared writing side of orders: {@link OrderWriter} (every write of the orders' rows, on the caller's
 * transaction), {@link OrderHooks} (the order status hooks contexts above orders register with, e.g. the
 * invoices) and the order transaction log writer. Imported by every use case that changes orders (create, actions, payments, expiry) and by the
 * invoices context.
 */
@Module({
  imports: [OrderTransactionsCoreModule],
  providers: [OrderWriter, OrderHooks, OrderWriterQueries, AnswerQueries],
  exports: [OrderWriter, OrderHooks, OrderTransactionsCoreModule],
})
export class OrderWritingModule {}
