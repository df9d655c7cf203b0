import { Injectable } from '@nestjs/common';
import { Periodic } from '../../common/contributions';
import { QuotaCountCheck, QuotaCountReport } from './quota-count-check';

/**
 * The periodic consistency check of the maintained quota counts, repairing what drifted (the scheduler queue's
 * `quota-check` job, every `QUOTA_CHECK_INTERVAL_MS`; {@link QuotaCountCheck}).
 */
@Injectable()
export class QuotaCountRepair {
  constructor(private readonly check: QuotaCountCheck) {}

  /** Checks every count and repairs the wrong ones. @returns the check's report */
  @Periodic('orders.quota-check')
  repair(): Promise<QuotaCountReport> {
    return this.check.run({ repair: true });
  }
}
