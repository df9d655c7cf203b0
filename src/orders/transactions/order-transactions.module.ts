import { Module } from '@nestjs/common';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderTransactionReads } from './order-transaction-reads.service';
import { OrderTransactionQueries } from './order-transaction.queries';
import {
  OrderTransactionsController,
  OrganizerTransactionsController,
} from './order-transactions.controller';

/**
 * The order transaction log over HTTP (pretix 2025.7 "Transactions"): `E/transactions/` and `O/transactions/`,
 * read-only. The rows are written by `OrderTransactionLog` (`OrderTransactionsCoreModule`).
 */
@Module({
  imports: [TenancyModule],
  controllers: [OrderTransactionsController, OrganizerTransactionsController],
  providers: [OrderTransactionReads, OrderTransactionQueries],
})
export class OrderTransactionsModule {}
