import { SetMetadata } from '@nestjs/common';
import type { Permission } from '../auth/permissions';
import type { ExportFormChecker } from './export-form';

/**
 * The contract of an exporter (compat §3.7; README "Scheduled exports"): the contexts that own the data declare
 * their exporters here-shaped (`@Exporter('<identifier>')` on a provider implementing {@link Exporter}) and the
 * exports context discovers them at boot, checks forms against their declaration and writes the tables they give.
 * Declared in the tasks layer, below every context that owns exported data, because exports run as tasks.
 */

/** Where an exporter runs: an event (`E/...`) or an organizer (`O/...`, several events). */
export type ExportLevel = 'event' | 'organizer';

/** A cell value of an export: text, number, boolean, a UTC instant, or empty. */
export type Cell = string | number | boolean | Date | null;

/** One table of an export (a sheet in XLSX, a key in JSON; CSV holds the first table only). */
export interface ExportTable {
  name: string;
  header: readonly string[];
  /** Rows in batches, so that the source is read in bounded memory. */
  batches: AsyncIterable<Cell[][]>;
}

/** An event as the export scope needs it. */
export interface ScopeEvent {
  id: number;
  slug: string;
  dateFrom: Date;
  timezone: string;
}

/** What one run of an exporter covers, already checked against the owner's permissions. */
export interface ExportScope {
  organizerId: number;
  /** The event of an event-level export; null at organizer level. */
  event: ScopeEvent | null;
  /** The events whose data the export holds (empty for organizer-only exporters). */
  eventIds: number[];
  /** The cleaned form data ({@link ExporterDeclaration.form}). */
  form: Record<string, unknown>;
  locale: string;
  /** Time zone of organizer-level date frames. */
  timezone: string;
}

/** The permissions an exporter needs on each event it covers (any of them), or on the organizer (all of them). */
export interface ExporterPermission {
  event?: Permission[];
  organizer?: Permission[];
}

/** What an exporter is, without running it: identity, levels, permissions and its form (compat §3.7). */
export interface ExporterDeclaration {
  identifier: string;
  verboseName: string;
  levels: readonly ExportLevel[];
  permission: ExporterPermission;
  /** Checks and completes the exporter's own form fields (`_format` is checked for every exporter). */
  form(c: ExportFormChecker, level: ExportLevel): void;
}

/** A provider that writes one kind of export. */
export interface Exporter {
  readonly declaration: ExporterDeclaration;
  /**
   * The tables of one run, their rows read in batches as the file is written.
   * @throws TaskError for a failure the client may read about (e.g. a list that no longer exists)
   */
  tables(scope: ExportScope): Promise<ExportTable[]>;
}

export const EXPORTER = 'ticketing:exporter';

/** Marks a provider as the exporter `identifier`; the exports context finds it at boot. */
export const Exporter = (identifier: string) => SetMetadata(EXPORTER, identifier);

/** The name in `locale` of a localized name (else English, else any), or '' when there is none. */
export const nameIn = (name: Record<string, string> | undefined, locale: string): string =>
  !name ? '' : (name[locale] ?? name.en ?? Object.values(name)[0] ?? '');

/** Maps each batch of `source` to rows of cells. */
export async function* mapBatches<T>(
  source: AsyncIterable<T[]>,
  map: (rows: T[]) => Cell[][] | Promise<Cell[][]>,
): AsyncGenerator<Cell[][]> {
  for await (const rows of source) yield await map(rows);
}
