import { Module } from '@nestjs/common';
import { CustomerQueries } from './customer.queries';
import { CustomerReads, MembershipUsage } from './customer-reads.service';
import { MembershipGrants } from './membership-grants.service';

/**
 * The customers context's exported reads ({@link CustomerReads}), the memberships paid orders grant
 * ({@link MembershipGrants}) and its answer to the catalogue's
 * `MEMBERSHIP_TYPE_USAGE` port ({@link MembershipUsage}, mapped to the token by the orders' SalesUsageModule, which
 * hands the catalogue its ports). Imports nothing, so the sales side can import it without a cycle.
 */
@Module({
  providers: [CustomerQueries, CustomerReads, MembershipUsage, MembershipGrants],
  exports: [CustomerQueries, CustomerReads, MembershipUsage, MembershipGrants],
})
export class CustomersCoreModule {}
