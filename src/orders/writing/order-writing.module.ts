import { Module } from '@nestjs/common';
import { OrderHooks } from './order-hooks';
import { OrderWriter } from './order-writer';
import { AnswerQueries } from '../answers/answer.queries';
import { OrderWriterQueries } from './order-writer.queries';

/**
 * The shared writing side of orders: {@link OrderWriter} (every write of the orders' rows, on the caller's
 * transaction) and {@link OrderHooks} (the order status hooks contexts above orders register with, e.g. the
 * invoices). Imported by every use case that changes orders (create, actions, payments, expiry) and by the
 * invoices context.
 */
@Module({
  providers: [OrderWriter, OrderHooks, OrderWriterQueries, AnswerQueries],
  exports: [OrderWriter, OrderHooks],
})
export class OrderWritingModule {}
