import { stringify } from 'csv-stringify/sync';
import { EventEmitter, once } from 'events';
import { Writable } from 'stream';
import type { Cell, ExportTable } from '../tasks/exporter';
import type { ExportFormat } from './export-forms.rules';

export type { Cell, ExportTable } from '../tasks/exporter';

/** An export ready to be written: its name and content type, and the writer of its bytes. */
export interface ExportFile {
  filename: string;
  contentType: string;
  /**
   * Writes the file into `out`, reading the row batches one at a time and waiting whenever `out` asks to
   * (back-pressure). XLSX ends `out` itself; CSV and JSON leave that to the caller.
   */
  write(out: Writable): Promise<void>;
}

const TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
};

const text = (v: Cell): string => (v === null ? '' : v instanceof Date ? v.toISOString() : String(v));

/** Writes `data`, waiting for `out` to drain when its buffer is full (rejects when `out` fails). */
async function put(out: Writable, data: string): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

/**
 * Writes tables as CSV (`csv-stringify`, one call per batch, header row, first table only), XLSX (`exceljs`'
 * streaming workbook writer, one sheet per table, rows committed as they come) or JSON
 * (`{"<table>": [{header: value}, ...]}`, one string per batch). Memory holds one batch and what `out` buffers,
 * never the file.
 * @returns the file named `<baseName>.<format>`
 */
export function tablesFile(
  format: ExportFormat,
  baseName: string,
  tables: readonly ExportTable[],
): ExportFile {
  const write = format === 'csv' ? writeCsv : format === 'xlsx' ? writeXlsx : writeJson;
  return {
    filename: `${baseName}.${format}`,
    contentType: TYPES[format],
    write: (out) => write(tables, out),
  };
}

/** A writable stream of Node or of `readable-stream` (whose state has `needDrain` but no `writableNeedDrain`). */
type Drainable = EventEmitter & { writableNeedDrain?: boolean; _writableState?: { needDrain?: boolean } };

/** Resolves when `stream` no longer asks its writers to wait (at once when it is not given or does not ask). */
async function drained(stream: Drainable | undefined): Promise<void> {
  if (stream && (stream.writableNeedDrain ?? stream._writableState?.needDrain)) await once(stream, 'drain');
}

/**
 * The stream in which a sheet's committed XML waits for the zip compressor, if exceljs has one as expected
 * (exceljs 4: the sheet's `StreamBuf` writes to its `pipes`, a `readable-stream` `PassThrough` that archiver reads
 * the entry from). Those writes ignore the return value, so an export faster than the compressor would otherwise
 * pile the sheet up there (130 MB at 300,000 rows).
 */
export function sheetInput(sheet: object): Drainable | undefined {
  const pipes = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes;
  const first: unknown = Array.isArray(pipes) ? pipes[0] : undefined;
  return first instanceof EventEmitter && '_writableState' in first ? (first as Drainable) : undefined;
}

async function writeCsv(tables: readonly ExportTable[], out: Writable): Promise<void> {
  const table = tables[0];
  if (!table) return;
  await put(out, stringify([[...table.header]]));
  for await (const batch of table.batches) await put(out, stringify(batch.map((row) => row.map(text))));
}

async function writeXlsx(tables: readonly ExportTable[], out: Writable): Promise<void> {
  // Loaded on first use: exceljs (about 25 MB resident) stays out of a worker that writes no XLSX.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  for (const table of tables) {
    const sheet = book.addWorksheet(table.name.slice(0, 31));
    sheet.addRow([...table.header]).commit();
    for await (const batch of table.batches) {
      for (const row of batch) sheet.addRow(row.map((v) => (v === null ? '' : v))).commit();
      // exceljs' own streams ignore back-pressure: wait here while the compressor has not taken the sheet's
      // XML so far, or `out` is still storing earlier bytes.
      await drained(sheetInput(sheet));
      await drained(out);
    }
    sheet.commit();
  }
  // Resolves once `out` has finished.
  await book.commit();
}

async function writeJson(tables: readonly ExportTable[], out: Writable): Promise<void> {
  await put(out, '{');
  let firstTable = true;
  for (const table of tables) {
    await put(out, `${firstTable ? '' : ','}${JSON.stringify(table.name)}:[`);
    firstTable = false;
    let first = true;
    for await (const batch of table.batches) {
      if (batch.length === 0) continue;
      const rows = batch.map((row) =>
        JSON.stringify(Object.fromEntries(table.header.map((h, i) => [h, row[i] ?? null]))),
      );
      await put(out, (first ? '' : ',') + rows.join(','));
      first = false;
    }
    await put(out, ']');
  }
  await put(out, '}');
}
