import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { TaskError } from '../tasks/task-executor';
import type { ExportFormat } from './export-forms.rules';
import { coverage, ScopeEvent } from './export-scope.rules';
import { ExporterRegistry } from './exporter-registry';
import { ExportFile, tablesFile } from './table-writer';

/** One export to run: who for, where, which exporter with which (cleaned) form data. */
export interface ExportJob {
  principal: Principal;
  organizerId: number;
  /** Null: organizer level. */
  eventId: number | null;
  identifier: string;
  form: Record<string, unknown>;
  locale: string;
  /** Time zone of organizer-level date frames. */
  timezone: string;
  /** The message of a refused run (default {@link EXPORT_FORBIDDEN}). */
  refusal?: string;
}

/** Refusal when the owner may no longer read what the export covers. */
export const EXPORT_FORBIDDEN = 'The owner of this export does not have the permission to run it.';

/** Refusal of a run started through `…/exporters/{id}/run/` (pretix's `ExportError` message). */
export const RUN_FORBIDDEN =
  'Export not found or you do not have sufficient permission to perform this export.';

/**
 * Runs the exporters (compat §3.7; each an `@Exporter` of the context that owns its data, found in the
 * {@link ExporterRegistry}): checks the job and gives the file to write ({@link tablesFile}), whose writer reads the
 * rows the exporter's tables give in batches. The data is limited to what `job.principal` may read now ({@link coverage}).
 * @throws TaskError {@link EXPORT_FORBIDDEN} when it may read nothing the export needs (or the exporter is
 *   unknown), or for a missing list
 */
@Injectable()
export class Exporters {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tenancy: TenancyQueries,
    private readonly exporters: ExporterRegistry,
  ) {}

  async run(job: ExportJob): Promise<ExportFile> {
    const events: ScopeEvent[] = await this.tenancy.eventsOfOrganizer(this.db.manager, job.organizerId);
    const event = job.eventId === null ? null : (events.find((e) => e.id === job.eventId) ?? null);
    if (job.eventId !== null && !event) throw new TaskError('The event of this export no longer exists.');
    const exporter = this.exporters.get(job.identifier);
    const covered = coverage(
      job.principal,
      exporter?.declaration ?? null,
      job.organizerId,
      event,
      events,
      job.form,
      job.timezone,
    );
    if (!covered || !exporter) throw new TaskError(job.refusal ?? EXPORT_FORBIDDEN);
    const format = job.form._format as ExportFormat;
    const base = `${event ? event.slug : 'organizer'}_${job.identifier}`;
    const tables = await exporter.tables({
      organizerId: job.organizerId,
      event,
      eventIds: covered.eventIds,
      form: job.form,
      locale: job.locale,
      timezone: job.timezone,
    });
    return tablesFile(format, base, tables);
  }
}
