import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { NotFound, TaskFailed, ValidationFailed } from '../common/errors';
import type { Event } from '../organizers/event.entity';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import type { AsyncTask } from '../tasks/async-task.entity';
import { QUEUES } from '../tasks/queues';
import type { StoredFile } from '../tasks/stored-file.entity';
import { StoredFiles } from '../tasks/stored-files.service';
import { TasksService } from '../tasks/tasks.service';
import { shredConstraint } from './shred-constraints';
import type { ShredderExportDto } from './shredder.dto';
import {
  ShredderExportJson,
  ShredderJson,
  ShredderListJson,
  ShredStartedJson,
  ShredStatusJson,
  toShredderJson,
} from './shredder.presenter';
import {
  EXPORT_TTL_MS,
  SHRED_EXPORT,
  SHRED_RUN,
  SHRED_STATUS_TTL_MS,
  SHREDDERS,
  shredderOf,
  ShredTaskInput,
} from './shredders';

/** Message of a status that is no longer known (compat §3.8; the tasks service's wording). */
const GONE = 'May have succeeded or timed out.';

/**
 * The shredder state machine of compat §3.8 in the API process: list and detail, start an export (task
 * `shredder.export`), download its ZIP, start the shred (task `shredder.shred`), and its status. The URLs carry two
 * opaque random ids: the task id and the export's file id; a task is only found for the credential that started
 * it (TasksService), and only under its event.
 */
@Injectable()
export class ShreddersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tasks: TasksService,
    private readonly files: StoredFiles,
  ) {}

  /** Every shredder, sorted by `verbose_name`, pseudo-paginated. */
  list(): ShredderListJson {
    const results = SHREDDERS.map(toShredderJson);
    return { count: results.length, next: null, previous: null, results };
  }

  /** @throws NotFound for an unknown identifier */
  get(identifier: string): ShredderJson {
    const s = shredderOf(identifier);
    if (!s) throw new NotFound();
    return toShredderJson(s);
  }

  /**
   * Starts the export of the chosen shredders' data. `base` is the absolute URL of `E/shredders/`.
   * @throws ValidationFailed bare list when the event may not be shredded (not over, or live)
   * @throws ServiceUnavailable when the queue is unreachable
   */
  async startExport(
    event: Event,
    principal: Principal,
    body: ShredderExportDto,
    base: string,
  ): Promise<ShredderExportJson> {
    await this.checkConstraints(event);
    const input: ShredTaskInput = { shredders: [...new Set(body.shredders)], file: randomUUID() };
    const task = await this.tasks.start(principal, {
      kind: SHRED_EXPORT,
      queue: QUEUES.shredder,
      organizerId: event.organizerId,
      eventId: event.id,
      input: { ...input },
      ttlMs: EXPORT_TTL_MS,
    });
    return {
      download: `${base}download/${task.id}/${input.file}/`,
      shred: `${base}shred/${task.id}/${input.file}/`,
    };
  }

  /**
   * The export ZIP.
   * @throws TaskNotReady 409, TaskFailed 410, NotFound 404 (unknown, expired, another credential's, or shredded)
   */
  async download(event: Event, principal: Principal, taskId: string, fileId: string): Promise<StoredFile> {
    const task = await this.exportTask(event, principal, taskId, fileId);
    const [file] = task.resultFileId ? await this.files.findLive([task.resultFileId]) : [];
    if (!file) throw new NotFound();
    return file;
  }

  /**
   * Starts shredding the data of a finished export; the constraints are checked again.
   * @throws TaskNotReady 409 (export running), TaskFailed 410 (export failed), NotFound 404, ValidationFailed 400
   */
  async startShred(
    event: Event,
    principal: Principal,
    taskId: string,
    fileId: string,
    base: string,
  ): Promise<ShredStartedJson> {
    const exported = await this.exportTask(event, principal, taskId, fileId);
    const [file] = exported.resultFileId ? await this.files.findLive([exported.resultFileId]) : [];
    if (!file) throw new NotFound();
    await this.checkConstraints(event);
    const input = exported.input as unknown as ShredTaskInput;
    const task = await this.tasks.start(principal, {
      kind: SHRED_RUN,
      queue: QUEUES.shredder,
      organizerId: event.organizerId,
      eventId: event.id,
      input: { shredders: input.shredders, file: input.file, export: exported.id },
      ttlMs: SHRED_STATUS_TTL_MS,
    });
    return { status: `${base}status/${task.id}/${input.file}/` };
  }

  /**
   * @throws TaskNotReady 409, TaskFailed 417 (failed) or 410 `gone` (unknown, older than an hour, another
   * credential's)
   */
  async status(event: Event, principal: Principal, taskId: string, fileId: string): Promise<ShredStatusJson> {
    const found = await this.tasks.find(taskId, principal);
    const input = found?.input as unknown as ShredTaskInput | undefined;
    if (!found || found.kind !== SHRED_RUN || found.eventId !== event.id || input?.file !== fileId) {
      throw new TaskFailed(GONE, 'gone');
    }
    const task = await this.tasks.poll(taskId, principal, { missing: 'gone', failed: 'shred' });
    return { status: 'ok', message: task.message ?? 'OK' };
  }

  /** The export task of this credential and event whose file id matches; 409/410 while not succeeded. */
  private async exportTask(
    event: Event,
    principal: Principal,
    taskId: string,
    fileId: string,
  ): Promise<AsyncTask> {
    const found = await this.tasks.find(taskId, principal);
    const input = found?.input as unknown as ShredTaskInput | undefined;
    if (!found || found.kind !== SHRED_EXPORT || found.eventId !== event.id || input?.file !== fileId) {
      throw new NotFound();
    }
    return this.tasks.poll(taskId, principal, { missing: 'not-found', failed: 'task' });
  }

  /** @throws ValidationFailed bare list with the reason the event may not be shredded */
  private async checkConstraints(event: Event): Promise<void> {
    const lastEnd = event.hasSubevents
      ? await new SubEventQueries().lastSubeventEnd(this.db.manager, event.id)
      : (event.dateTo ?? event.dateFrom);
    const reason = shredConstraint({ live: event.live, lastEnd: lastEnd ?? new Date(8.64e15) });
    if (reason) throw ValidationFailed.bare(reason);
  }
}
