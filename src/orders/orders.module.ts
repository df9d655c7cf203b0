import { Global, Module } from '@nestjs/common';
import { QUOTA_AVAILABILITY } from '../catalogue/quotas/quota-availability';
import { QuotaEngine } from './quota-engine.service';

/**
 * The sales side: the quota engine now; orders and cart positions with the orders issue. Global so that the
 * catalogue can inject the {@link QUOTA_AVAILABILITY} port it declares without importing this module.
 */
@Global()
@Module({
  providers: [QuotaEngine, { provide: QUOTA_AVAILABILITY, useExisting: QuotaEngine }],
  exports: [QUOTA_AVAILABILITY, QuotaEngine],
})
export class OrdersModule {}
