import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AsyncTask } from '../tasks/async-task.entity';
import { ExecutesTask, TaskContext, TaskError, TaskExecutor, TaskOutcome } from '../tasks/task-executor';
import { StoredFiles } from '../tasks/stored-files.service';
import { lockTaskResultFile } from '../tasks/task-rows';
import { EXPORT_FILE_KIND, SHRED_EXPORT, SHRED_RUN, shredderOf, ShredTaskInput } from './shredders';
import { zipFiles } from './zip';

/** The shredders of a task's input, in the given order. @throws TaskError for an unknown identifier */
function shreddersOf(task: AsyncTask) {
  const input = task.input as unknown as ShredTaskInput;
  return input.shredders.map((id) => {
    const s = shredderOf(id);
    if (!s) throw new TaskError(`Unknown shredder ${id}.`);
    return s;
  });
}

/**
 * `shredder.export` (worker): reads the data of the chosen shredders in one repeatable-read transaction (one
 * consistent snapshot) and stores a ZIP with one `<identifier>.json` per shredder, kept as long as the task (two
 * hours). An unknown identifier in the input fails the task with a readable message.
 */
@Injectable()
@ExecutesTask(SHRED_EXPORT)
export class ShredderExportTask implements TaskExecutor {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async run(task: AsyncTask, ctx: TaskContext): Promise<TaskOutcome> {
    const shredders = shreddersOf(task);
    const eventId = task.eventId!;
    const files = await this.db.transaction('REPEATABLE READ', async (em) => {
      const out: { name: string; content: string }[] = [];
      for (const s of shredders) {
        out.push({
          name: `${s.identifier}.json`,
          content: JSON.stringify(await s.export(em, eventId), null, 2),
        });
        await ctx.progress((100 * out.length) / (shredders.length + 1));
      }
      return out;
    });
    const content = await zipFiles(files);
    const resultFileId = await ctx.storeFile({
      kind: EXPORT_FILE_KIND,
      filename: 'shredder-export.zip',
      contentType: 'application/zip',
      content,
      organizerId: task.organizerId,
    });
    return { resultFileId, message: 'OK' };
  }
}

/**
 * `shredder.shred` (worker): in one transaction, locks the export task's row, checks its file still exists,
 * removes the data of every chosen shredder through its owner context, and deletes the export file and the dropped
 * invoice PDFs. A second shred of the same export finds no file and fails.
 */
@Injectable()
@ExecutesTask(SHRED_RUN)
export class ShredderRunTask implements TaskExecutor {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: StoredFiles,
  ) {}

  async run(task: AsyncTask): Promise<TaskOutcome> {
    const shredders = shreddersOf(task);
    const input = task.input as unknown as ShredTaskInput;
    const eventId = task.eventId!;
    await this.db.transaction(async (em) => {
      const fileId = input.export ? await lockTaskResultFile(em, input.export, SHRED_EXPORT) : null;
      const [file] = fileId ? await this.files.findLive([fileId]) : [];
      if (!file) throw new TaskError('The export file does not exist any more.');
      const dropped: string[] = [];
      for (const s of shredders) dropped.push(...(await s.shred(em, eventId)));
      await this.files.delete([file.id, ...dropped], em);
    });
    return { message: 'OK' };
  }
}
