import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { PassThrough } from 'stream';
import type { ExportFormat } from './export-forms.rules';

/** A cell value of an export: text, number, boolean, a UTC instant, or empty. */
export type Cell = string | number | boolean | Date | null;

/** One table of an export (a sheet in XLSX, a key in JSON; CSV holds the first table only). */
export interface ExportTable {
  name: string;
  header: readonly string[];
  /** Rows in batches, so that the source is read in bounded memory. */
  batches: AsyncIterable<Cell[][]>;
}

/** A written export file. */
export interface ExportFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

const TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
};

const text = (v: Cell): string => (v === null ? '' : v instanceof Date ? v.toISOString() : String(v));

/** Collects a stream's chunks (the file ends up in one `bytea`; only the file, never the rows, is held). */
function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (c: Buffer | string) => chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c)));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/**
 * Writes tables as CSV (`csv-stringify`, one call per batch, header row, first table only), XLSX (`exceljs`' streaming workbook
 * writer, one sheet per table, rows committed as they come) or JSON (`{"<table>": [{header: value}, ...]}`),
 * consuming the row batches one at a time, so memory holds one batch and the (compressed) file.
 * @returns the file named `<baseName>.<format>`
 */
export async function writeTables(
  format: ExportFormat,
  baseName: string,
  tables: readonly ExportTable[],
): Promise<ExportFile> {
  const file = (content: Buffer): ExportFile => ({
    filename: `${baseName}.${format}`,
    contentType: TYPES[format],
    content,
  });
  if (format === 'csv') {
    // One synchronous stringify per batch: the file grows by one Buffer per batch, no per-row stream chunks.
    const parts: Buffer[] = [];
    const table = tables[0];
    if (table) {
      parts.push(Buffer.from(stringify([[...table.header]]), 'utf8'));
      for await (const batch of table.batches)
        parts.push(Buffer.from(stringify(batch.map((row) => row.map(text))), 'utf8'));
    }
    return file(Buffer.concat(parts));
  }
  if (format === 'xlsx') {
    const out = new PassThrough();
    const done = collect(out);
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    for (const table of tables) {
      const sheet = book.addWorksheet(table.name.slice(0, 31));
      sheet.addRow([...table.header]).commit();
      for await (const batch of table.batches)
        for (const row of batch) sheet.addRow(row.map((v) => (v === null ? '' : v))).commit();
      sheet.commit();
    }
    await book.commit();
    return file(await done);
  }
  const out = new PassThrough();
  const done = collect(out);
  out.write('{');
  let firstTable = true;
  for (const table of tables) {
    out.write(`${firstTable ? '' : ','}${JSON.stringify(table.name)}:[`);
    firstTable = false;
    let first = true;
    for await (const batch of table.batches) {
      const parts = batch.map((row) =>
        JSON.stringify(Object.fromEntries(table.header.map((h, i) => [h, row[i] ?? null]))),
      );
      if (parts.length === 0) continue;
      out.write((first ? '' : ',') + parts.join(','));
      first = false;
    }
    out.write(']');
  }
  out.end('}');
  return file(await done);
}
