import { SetMetadata } from '@nestjs/common';
import type { AsyncTask } from './async-task.entity';
import type { FileMeta, FileProducer, NewFile } from './stored-files.service';

/** A failure whose message clients may read (`{"status": "failed", "message": ...}`); others read "Internal error". */
export class TaskError extends Error {}

/** What an executor can do while it runs. */
export interface TaskContext {
  /** Reports progress in percent (0-100). */
  progress(percent: number): Promise<void>;
  /** Stores a file the task produced (expires with the task unless told otherwise). */
  storeFile(file: Omit<NewFile, 'taskId' | 'expires'> & { expires?: Date | null }): Promise<string>;
  /**
   * Stores a file as `produce` writes it, in bounded memory and in one transaction (StoredFiles.write); expires
   * with the task unless told otherwise. @returns its id and size in bytes
   */
  writeFile(
    file: Omit<FileMeta, 'taskId' | 'expires'> & { expires?: Date | null },
    produce: FileProducer,
  ): Promise<{ id: string; size: number }>;
}

/** What a successful run gives back: an optional note and the result file. */
export interface TaskOutcome {
  message?: string | null;
  resultFileId?: string | null;
}

/** Runs the tasks of one kind (worker only). Throw {@link TaskError} for a failure clients may read about. */
export interface TaskExecutor {
  run(task: AsyncTask, ctx: TaskContext): Promise<TaskOutcome>;
}

export const TASK_KIND = 'ticketing:task-kind';

/** Marks a provider as the executor of a task kind; the worker's task runner finds it. */
export const ExecutesTask = (kind: string) => SetMetadata(TASK_KIND, kind);
