import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  checkContributions,
  discoverPeriodicJobs,
  periodicJobsOf,
  PeriodicRun,
} from '../common/contributions';

/**
 * The periodic jobs of a tick, in the order the tick runs them (architecture.md "Processes"): tidy-ups first
 * (idempotency records, cart positions), then the state changes (order expiry, automatic exits), the outbox
 * sweeps (after the waiting list's automatic assignment, whose mails they send), the change feed's numbering and
 * pruning, task care and the scheduled exports, and last the expiry of tasks and files, OAuth pruning and the
 * scheduled e-mail rules. Each is declared with `@Periodic('<name>')` on the method of its owning service.
 */
export const TICK_JOBS = [
  'common.idempotency-purge',
  'orders.cart-purge',
  'orders.expire',
  'checkin.exit-all',
  'waitinglist.assign',
  'mail.sweep',
  'webhooks.sweep',
  'webhooks.prune',
  'sync.sequence-changes',
  'sync.prune-changes',
  'tasks.fail-lost',
  'exports.book-finished',
  'exports.start-due',
  'tasks.purge-expired',
  'oauth.prune',
  'sendmail-rules.run',
] as const;

/** The periodic job of the scheduler queue's second repeatable job (`quota-check`). */
export const QUOTA_CHECK_JOB = 'orders.quota-check';

/** Run by the same `quota-check` job after it: the check of the maintained check-in list counts. */
export const CHECKIN_COUNTS_CHECK_JOB = 'checkin.counts-check';

/** Every periodic job name the worker must provide exactly once (the boot check). */
export const PERIODIC_JOBS: readonly string[] = [...TICK_JOBS, QUOTA_CHECK_JOB, CHECKIN_COUNTS_CHECK_JOB];

/**
 * The periodic jobs of the worker, by name: discovered at boot among the providers (`@Periodic` methods) and
 * checked, so that a missing, duplicated or unknown job stops the worker with an error naming it.
 */
@Injectable()
export class PeriodicJobs implements OnModuleInit {
  private runs = new Map<string, PeriodicRun>();

  /** `null`: built by `of()`, without discovery. */
  constructor(@Inject(DiscoveryService) private readonly discovery: DiscoveryService | null) {}

  /** The jobs these owners declare (no discovery; tests and tools). @throws ContributionError as at boot */
  static of(owners: readonly object[]): PeriodicJobs {
    const jobs = new PeriodicJobs(null);
    jobs.runs = checkContributions('periodic job', PERIODIC_JOBS, owners.flatMap(periodicJobsOf));
    return jobs;
  }

  /** @throws ContributionError when a periodic job has no provider or more than one */
  onModuleInit(): void {
    if (this.discovery)
      this.runs = checkContributions('periodic job', PERIODIC_JOBS, discoverPeriodicJobs(this.discovery));
  }

  /** Runs the job `name` once. @returns what it returns (a count or an object of counts) */
  run(name: string): Promise<unknown> {
    const run = this.runs.get(name);
    if (!run) throw new Error(`no periodic job ${name}`);
    return run();
  }
}
