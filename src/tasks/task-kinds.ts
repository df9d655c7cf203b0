import type { DiscoveryService } from '@nestjs/core';
import { checkContributions, discoverClassContributions } from '../common/contributions';
import { TASK_KIND, TaskExecutor } from './task-executor';

/**
 * The task kinds of this service (architecture.md "Async tasks"), each run by exactly one `@ExecutesTask(kind)`
 * provider of the worker: the diagnostic sleep, export runs (compat §3.7), the shredder's export and shred
 * (compat §3.8), ticket renders (`tickets/`, compat §4.4 `download`).
 */
export const TASK_KINDS: readonly string[] = [
  'diagnostic.sleep',
  'exports.run',
  'shredder.export',
  'shredder.shred',
  'tickets.render',
];

/**
 * The executors of the application's providers by task kind, checked at boot.
 * @throws ContributionError when a kind of {@link TASK_KINDS} has no executor or more than one, or an executor
 *   names an unknown kind
 */
export function discoverTaskExecutors(discovery: DiscoveryService): Map<string, TaskExecutor> {
  return checkContributions(
    'task kind',
    TASK_KINDS,
    discoverClassContributions<TaskExecutor>(discovery, TASK_KIND),
  );
}
