import { Injectable, Logger } from '@nestjs/common';
import type { OAuthPruned } from '../oauth/oauth-housekeeping';
import type { QuotaCountReport } from '../orders/quota-engine/quota-count-check';
import { JobProcessor, ProcessesQueue, QueuedJob } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import { CHECKIN_COUNTS_CHECK_JOB, PeriodicJobs, QUOTA_CHECK_JOB, TICK_JOBS } from './periodic-jobs';

export const SCHEDULER_TICK = 'tick';
/** Job name of the periodic consistency check of the quota counts (`QuotaCountCheck`). */
export const QUOTA_CHECK = 'quota-check';

/** What one tick did. */
export interface TickResult {
  at: string;
  cartPositionsPurged: number;
  /** Pending orders past their payment deadline set to expired. */
  ordersExpired: number;
  /** Exit scans written for check-in lists past their `exit_all_at`. */
  autoExits: number;
  /** Vouchers sent to waiting list entries by the automatic assignment. */
  waitingListVouchers: number;
  mailsEnqueued: number;
  /** Due webhook deliveries enqueued (the outbox sweep). */
  webhooksEnqueued: number;
  /** Webhook deliveries older than 30 days deleted. */
  webhookDeliveriesPruned: number;
  tasksFailed: number;
  /** OAuth codes, token pairs and sessions deleted (`OAuthHousekeeping`). */
  oauthPruned: number;
  /** Mails of scheduled e-mail rules put into the outbox (`SendmailRuleRunner`). */
  ruleMails: number;
  /** Scheduled export runs booked (finished) and started (`ScheduledExportRuns`). */
  exportRunsBooked: number;
  exportsStarted: number;
}

/**
 * The `scheduler` queue's repeatable job (every `SCHEDULER_INTERVAL_MS`, architecture.md "Processes"): runs the
 * periodic jobs of a tick in their declared order ({@link TICK_JOBS}: expired idempotency records and cart
 * positions, pending orders past their payment deadline (pretix's automatic expiry), check-in lists past their
 * `exit_all_at`, the waiting list's automatic assignment, the mail and webhook outbox sweeps and the pruning of old deliveries, lost tasks, the scheduled
 * export runs, expired tasks and files, OAuth pruning, the scheduled e-mail rules) and reports their counts. Each
 * job is a `@Periodic` method of its owning service, discovered at boot ({@link PeriodicJobs}). A second
 * repeatable job of the queue (`quota-check`) runs the check and repair of the maintained quota counts. Each job
 * works on rows no other worker holds (`FOR UPDATE SKIP LOCKED`, conditional updates, de-duplicated jobs), so
 * ticks may overlap.
 */
@Injectable()
@ProcessesQueue(QUEUES.scheduler)
export class SchedulerProcessor implements JobProcessor {
  private readonly logger = new Logger('Scheduler');

  constructor(private readonly jobs: PeriodicJobs) {}

  async process(job: QueuedJob): Promise<TickResult | QuotaCountReport> {
    if (job.name === QUOTA_CHECK) {
      const report = (await this.jobs.run(QUOTA_CHECK_JOB)) as QuotaCountReport;
      await this.jobs.run(CHECKIN_COUNTS_CHECK_JOB);
      return report;
    }
    return this.tick(job.id);
  }

  /** One tick; `id` names it in the logs. */
  async tick(id = 'manual'): Promise<TickResult> {
    const at = new Date().toISOString();
    const done = new Map<string, unknown>();
    for (const name of TICK_JOBS) done.set(name, await this.jobs.run(name));
    const count = (name: (typeof TICK_JOBS)[number]) => done.get(name) as number;
    const purged = count('common.idempotency-purge');
    const cartPositionsPurged = count('orders.cart-purge');
    const ordersExpired = count('orders.expire');
    const autoExits = count('checkin.exit-all');
    const waitingListVouchers = count('waitinglist.assign');
    const mailsEnqueued = count('mail.sweep');
    const webhooksEnqueued = count('webhooks.sweep');
    const webhookDeliveriesPruned = count('webhooks.prune');
    const tasksFailed = count('tasks.fail-lost');
    const exportRunsBooked = count('exports.book-finished');
    const exportsStarted = count('exports.start-due');
    const expired = done.get('tasks.purge-expired') as { tasks: number; files: number };
    const pruned = done.get('oauth.prune') as OAuthPruned;
    const ruleMails = count('sendmail-rules.run');
    const oauthPruned = pruned.codes + pruned.tokens + pruned.sessions;
    this.logger.log(
      `tick ${id}: ${purged} idempotency records, ${cartPositionsPurged} cart positions, ` +
        `${ordersExpired} pending orders, ${autoExits} automatic exits, ` +
        `${waitingListVouchers} waiting list vouchers, ` +
        `${expired.tasks} tasks and ${expired.files} files expired; ${mailsEnqueued} mails enqueued, ` +
        `${tasksFailed} lost tasks failed; OAuth: ${pruned.codes} codes, ${pruned.tokens} tokens, ` +
        `${pruned.sessions} sessions pruned; ` +
        `scheduled exports: ${exportRunsBooked} runs booked, ${exportsStarted} started; ` +
        `${webhooksEnqueued} webhook deliveries enqueued, ${webhookDeliveriesPruned} pruned; ${ruleMails} rule mails`,
    );
    return {
      at,
      cartPositionsPurged,
      ordersExpired,
      autoExits,
      waitingListVouchers,
      mailsEnqueued,
      tasksFailed,
      oauthPruned,
      exportRunsBooked,
      exportsStarted,
      ruleMails,
      webhooksEnqueued,
      webhookDeliveriesPruned,
    };
  }
}
