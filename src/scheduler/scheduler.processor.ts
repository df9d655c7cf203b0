import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { purgeExpiredIdempotencyRecords } from '../common/http/idempotency';
import { ExitAll } from '../checkin/exit-all';
import { ScheduledExportRuns } from '../exports/scheduled-export-runs.service';
import { MailSweep } from '../mail/mail-sweep.service';
import { OAuthHousekeeping } from '../oauth/oauth-housekeeping';
import { purgeExpiredCartPositions } from '../orders/carts/cart-expiry';
import { OrderExpiry } from '../orders/actions/order-expiry';
import { QuotaCountCheck, QuotaCountReport } from '../orders/quota-engine/quota-count-check';
import { JobProcessor, ProcessesQueue, QueuedJob } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import { TaskHousekeeping } from '../tasks/task-housekeeping.service';
import { SendmailRuleRunner } from '../sendmail-rules/sendmail-rule-runner';
import { WebhookDispatch } from '../webhooks/webhook-dispatch.service';

export const SCHEDULER_TICK = 'tick';
/** Job name of the periodic consistency check of the quota counts ({@link QuotaCountCheck}). */
export const QUOTA_CHECK = 'quota-check';

/** What one tick did. */
export interface TickResult {
  at: string;
  cartPositionsPurged: number;
  /** Pending orders past their payment deadline set to expired. */
  ordersExpired: number;
  /** Exit scans written for check-in lists past their `exit_all_at`. */
  autoExits: number;
  mailsEnqueued: number;
  /** Due webhook deliveries enqueued (the outbox sweep). */
  webhooksEnqueued: number;
  /** Webhook deliveries older than 30 days deleted. */
  webhookDeliveriesPruned: number;
  tasksFailed: number;
  /** OAuth codes, token pairs and sessions deleted ({@link OAuthHousekeeping}). */
  oauthPruned: number;
  /** Mails of scheduled e-mail rules put into the outbox ({@link SendmailRuleRunner}). */
  ruleMails: number;
  /** Scheduled export runs booked (finished) and started ({@link ScheduledExportRuns}). */
  exportRunsBooked: number;
  exportsStarted: number;
}

/**
 * The `scheduler` queue's repeatable job (every `SCHEDULER_INTERVAL_MS`, architecture.md "Processes"): purges
 * expired idempotency records and cart positions (every cart, web shop ones included), expires pending orders
 * past their payment deadline (pretix's automatic expiry, {@link OrderExpiry}), checks everybody out of check-in
 * lists past their `exit_all_at` ({@link ExitAll}), enqueues due mails and webhook deliveries again
 * (the outbox sweeps; old deliveries are pruned), marks tasks whose job was lost as failed, and deletes expired
 * tasks and files, and prunes unusable OAuth codes, tokens and sessions; books finished scheduled
 * export runs and starts the due ones ({@link ScheduledExportRuns}); runs the scheduled e-mail rules. A second
 * repeatable job of the queue (`quota-check`) checks and repairs the maintained quota counts. Later issues
 * plug their periodic work in here (due exports and mails, check-in list exits). Each step works on rows no other
 * worker holds (`FOR UPDATE SKIP LOCKED`, conditional updates, de-duplicated jobs), so ticks may overlap.
 */
@Injectable()
@ProcessesQueue(QUEUES.scheduler)
export class SchedulerProcessor implements JobProcessor {
  private readonly logger = new Logger('Scheduler');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly mails: MailSweep,
    private readonly tasks: TaskHousekeeping,
    private readonly orders: OrderExpiry,
    private readonly quotaCounts: QuotaCountCheck,
    private readonly exitAll: ExitAll,
    private readonly oauth: OAuthHousekeeping,
    private readonly sendmailRules: SendmailRuleRunner,
    private readonly exportRuns: ScheduledExportRuns,
    private readonly webhooks: WebhookDispatch,
  ) {}

  async process(job: QueuedJob): Promise<TickResult | QuotaCountReport> {
    if (job.name === QUOTA_CHECK) return this.quotaCounts.run({ repair: true });
    return this.tick(job.id);
  }

  /** One tick; `id` names it in the logs. */
  async tick(id = 'manual'): Promise<TickResult> {
    const at = new Date().toISOString();
    const purged = await purgeExpiredIdempotencyRecords(this.db);
    const cartPositionsPurged = await purgeExpiredCartPositions(this.db);
    const ordersExpired = await this.orders.expireDue();
    const autoExits = await this.exitAll.run();
    const mailsEnqueued = await this.mails.sweep();
    const webhooksEnqueued = await this.webhooks.sweep();
    const webhookDeliveriesPruned = await this.webhooks.prune();
    const tasksFailed = await this.tasks.failLostTasks().then(
      (ids) => ids.length,
      () => 0, // Redis unreachable: the next tick checks again.
    );
    const exportRunsBooked = await this.exportRuns.bookFinished();
    const exportsStarted = (await this.exportRuns.startDue()).length;
    const expired = await this.tasks.purgeExpired();
    const pruned = await this.oauth.prune();
    const ruleMails = await this.sendmailRules.run();
    const oauthPruned = pruned.codes + pruned.tokens + pruned.sessions;
    this.logger.log(
      `tick ${id}: ${purged} idempotency records, ${cartPositionsPurged} cart positions, ` +
        `${ordersExpired} pending orders, ${autoExits} automatic exits, ` +
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
