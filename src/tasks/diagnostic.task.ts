import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { AsyncTask } from './async-task.entity';
import { ExecutesTask, TaskContext, TaskError, TaskExecutor, TaskOutcome } from './task-executor';

export const DIAGNOSTIC_SLEEP = 'diagnostic.sleep';

/** Longest sleep a diagnostic task may ask for (milliseconds). */
const MAX_SLEEP_MS = 60_000;

/**
 * `diagnostic.sleep`: a harmless task that exercises the task machinery (used by the worker tests, which kill and
 * stop workers in the middle of it). Input `{ms, fail?, file?}`: sleeps `ms` (at most one minute) reporting
 * progress, then fails with the message `fail`, or stores a text file with the content `file`. Runs only when
 * `DIAGNOSTIC_TASKS` is on; otherwise the task fails. No endpoint starts it.
 */
@Injectable()
@ExecutesTask(DIAGNOSTIC_SLEEP)
export class DiagnosticSleepTask implements TaskExecutor {
  constructor(private readonly config: AppConfig) {}

  async run(task: AsyncTask, ctx: TaskContext): Promise<TaskOutcome> {
    if (!this.config.diagnosticTasks) throw new TaskError('Diagnostic tasks are disabled.');
    const input = task.input as { ms?: unknown; fail?: unknown; file?: unknown };
    const total = Math.min(Math.max(Number(input.ms) || 0, 0), MAX_SLEEP_MS);
    const step = 100;
    for (let slept = 0; slept < total; slept += step) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(step, total - slept)));
      if (slept % 1000 === 0) await ctx.progress((100 * slept) / total);
    }
    if (typeof input.fail === 'string') throw new TaskError(input.fail);
    if (typeof input.file === 'string') {
      const resultFileId = await ctx.storeFile({
        kind: 'diagnostic',
        filename: 'diagnostic.txt',
        contentType: 'text/plain',
        content: Buffer.from(input.file, 'utf8'),
      });
      return { resultFileId, message: 'OK' };
    }
    return { message: 'OK' };
  }
}
