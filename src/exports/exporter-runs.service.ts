import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { NotFound, TaskFailed, TaskNotReady, ValidationFailed } from '../common/errors';
import { TenancyQueries } from '../organizers/tenancy.queries';
import type { ExporterDeclaration, ExportLevel } from '../tasks/exporter';
import { QUEUES } from '../tasks/queues';
import type { StoredFile } from '../tasks/stored-file.entity';
import { StoredFiles } from '../tasks/stored-files.service';
import { POLL_RETRY_AFTER, TasksService } from '../tasks/tasks.service';
import { cleanExportForm } from './export-forms.rules';
import { EXPORT_RUN, ExportRunInput } from './export-run.task';
import { offeredTo } from './export-scope.rules';
import { ExporterRegistry } from './exporter-registry';
import { ExporterJson, ExporterListJson, ExportStartedJson, toExporterJson } from './exporter.presenter';
import type { ExportPlace } from './scheduled-exports.service';

/** Lifetime of an API run's task and file (pretix keeps the file 24 hours). */
const RUN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Exporters over HTTP (compat "Data exporters"; pretix `views/exporters.py`): the exporters offered to the caller
 * at an event (`E/exporters/`) or organizer (`O/exporters/`), and runs: the form is checked as pretix's
 * `JobRunSerializer` checks it, an `exports.run` task (the code path of scheduled exports, so the same form data
 * gives the same file) runs in the worker for the calling credential, whose grants it reads at run time, and the
 * download URL (task id and a random file id) answers only that credential.
 */
@Injectable()
export class ExporterRunsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly registry: ExporterRegistry,
    private readonly tenancy: TenancyQueries,
    private readonly tasks: TasksService,
    private readonly files: StoredFiles,
  ) {}

  /** Every exporter offered here to the principal, sorted by `verbose_name`, on one page. */
  list(place: ExportPlace, principal: Principal): ExporterListJson {
    const level = levelOf(place);
    const results = this.offered(place, principal).map((e) => toExporterJson(e, level));
    return { count: results.length, next: null, previous: null, results };
  }

  /** @throws NotFound for an exporter that is unknown or not offered to the principal here */
  get(place: ExportPlace, principal: Principal, identifier: string): ExporterJson {
    return toExporterJson(this.exporter(place, principal, identifier), levelOf(place));
  }

  /**
   * Starts a run. `base` is the absolute URL of `…/exporters/`.
   * @returns `{"download": "<base><identifier>/download/<task>/<file>/"}`
   * @throws NotFound for an exporter not offered here
   * @throws ValidationFailed naming the fields (`_format` required, unknown keys under `fields`, organizer-level
   *   `events` the caller may not export: `Object with slug=x does not exist.`)
   * @throws ServiceUnavailable when the queue is unreachable
   */
  async run(
    place: ExportPlace,
    principal: Principal,
    identifier: string,
    body: unknown,
    base: string,
  ): Promise<ExportStartedJson> {
    const exporter = this.exporter(place, principal, identifier);
    const level = levelOf(place);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw ValidationFailed.nonField(
        `Invalid data. Expected a dictionary, but got ${Array.isArray(body) ? 'list' : typeof body}.`,
      );
    const cleaned = cleanExportForm(exporter, level, body as Record<string, unknown>, 'run');
    if ('errors' in cleaned) throw new ValidationFailed(cleaned.errors);
    const form = cleaned.form;
    if (Array.isArray(form.events) && form.events.length > 0)
      await this.checkEvents(place, principal, exporter, form.events as string[]);
    const input: ExportRunInput = {
      identifier,
      form,
      locale: 'en',
      timezone: place.event ? place.event.timezone : 'UTC',
      file: randomUUID(),
    };
    const task = await this.tasks.start(principal, {
      kind: EXPORT_RUN,
      queue: QUEUES.exports,
      organizerId: place.organizer.id,
      eventId: place.event?.id ?? null,
      input: { ...input },
      ttlMs: RUN_TTL_MS,
    });
    return { download: `${base}${identifier}/download/${task.id}/${input.file}/` };
  }

  /**
   * The file of a finished run of this credential, exporter and place.
   * @throws TaskNotReady 409 `{"status", "percentage"}` while it waits or runs
   * @throws TaskFailed 410 `{"status": "failed", "message"}` when it failed
   * @throws NotFound unknown, expired, another credential's, or another place's or exporter's run
   */
  async download(
    place: ExportPlace,
    principal: Principal,
    identifier: string,
    taskId: string,
    fileId: string,
  ): Promise<StoredFile> {
    const task = await this.tasks.find(taskId, principal);
    const input = task?.input as ExportRunInput | undefined;
    if (
      !task ||
      task.kind !== EXPORT_RUN ||
      task.organizerId !== place.organizer.id ||
      task.eventId !== (place.event?.id ?? null) ||
      input?.identifier !== identifier ||
      input.file !== fileId
    )
      throw new NotFound();
    if (task.state === 'waiting' || task.state === 'running')
      throw new TaskNotReady(task.state, POLL_RETRY_AFTER, task.progress);
    if (task.state === 'failed') throw new TaskFailed(task.message ?? 'Internal error');
    const [file] = task.resultFileId ? await this.files.findLive([task.resultFileId]) : [];
    if (!file) throw new NotFound();
    return file;
  }

  private offered(place: ExportPlace, principal: Principal): ExporterDeclaration[] {
    const level = levelOf(place);
    return this.registry.declarations
      .filter(
        (e) =>
          e.levels.includes(level) && offeredTo(principal, e, place.organizer.id, place.event?.id ?? null),
      )
      .sort((a, b) => (a.verboseName < b.verboseName ? -1 : a.verboseName > b.verboseName ? 1 : 0));
  }

  private exporter(place: ExportPlace, principal: Principal, identifier: string): ExporterDeclaration {
    const found = this.offered(place, principal).find((e) => e.identifier === identifier);
    if (!found) throw new NotFound();
    return found;
  }

  /** The slugs must name events the caller may run the exporter on (pretix's `SlugRelatedField` over them). */
  private async checkEvents(
    place: ExportPlace,
    principal: Principal,
    exporter: ExporterDeclaration,
    slugs: string[],
  ): Promise<void> {
    const events = await this.tenancy.eventsOfOrganizer(this.db.manager, place.organizer.id);
    const allowed = new Set(
      events.filter((e) => offeredTo(principal, exporter, place.organizer.id, e.id)).map((e) => e.slug),
    );
    const bad = slugs.find((s) => !allowed.has(s));
    if (bad !== undefined)
      throw new ValidationFailed({ events: [`Object with slug=${bad} does not exist.`] });
  }
}

function levelOf(place: ExportPlace): ExportLevel {
  return place.event ? 'event' : 'organizer';
}
