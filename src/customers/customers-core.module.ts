import { Module } from '@nestjs/common';
import { CustomerQueries } from './customer.queries';
import { CustomerReads, MembershipUsage } from './customer-reads.service';

/**
 * The customers context's exported reads ({@link CustomerReads}) and its answer to the catalogue's
 * `MEMBERSHIP_TYPE_USAGE` port ({@link MembershipUsage}, mapped to the token by the orders' SalesUsageModule, which
 * hands the catalogue its ports). Imports nothing, so the sales side can import it without a cycle.
 */
@Module({
  providers: [CustomerQueries, CustomerReads, MembershipUsage],
  exports: [CustomerQueries, CustomerReads, MembershipUsage],
})
export class CustomersCoreModule {}
