import { randomBytes } from 'crypto';
import ExcelJS from 'exceljs';
import { once } from 'events';
import { Writable } from 'stream';
import { Cell, ExportTable, tablesFile } from '../src/exports/table-writer';
import { STORE_CHUNK_BYTES, StoredFiles } from '../src/tasks/stored-files.service';
import { startTestApp, TestApp } from './harness';

/** Writes `data` into `out`, waiting when it asks to (back-pressure). */
async function put(out: Writable, data: Buffer | string): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

/** What a test file is stored as: kind `test`, binary, never expiring. */
function binaryMeta(filename: string): {
  kind: string;
  filename: string;
  contentType: string;
  expires: null;
} {
  return { kind: 'test', filename, contentType: 'application/octet-stream', expires: null };
}

/** A table of `batches` batches of 1,000 rows (id, text, amount, flag, instant, empty); `failAt` throws there. */
function table(batches: number, failAt = -1): ExportTable {
  return {
    name: 'Rows',
    header: ['ID', 'Text', 'Amount', 'Flag', 'At', 'Empty'],
    batches: (async function* () {
      for (let b = 0; b < batches; b++) {
        if (b === failAt) throw new Error('source failed');
        yield Array.from({ length: 1000 }, (_, i): Cell[] => {
          const id = b * 1000 + i;
          return [
            id,
            `row ${id}, "quoted" ${'x'.repeat(id % 50)}`,
            `${id}.50`,
            id % 2 === 0,
            new Date(id * 1000),
            null,
          ];
        });
      }
    })(),
  };
}

/**
 * Stored files travel to PostgreSQL in pieces (`STORE_CHUNK_BYTES`, so an export's hex-encoded parameter does not
 * double its memory) as they are produced (`StoredFiles.write`; pieces after the first are staged and appended
 * at the end): a file of several pieces comes back byte for byte with its size, also two in one transaction, no
 * other connection sees it before it is complete, and one that fails half-way (a failed append or a failing
 * producer, such as an exporter whose source fails) leaves no row (one transaction).
 */
describe('stored files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('stores a file of two and a half pieces and reads it back byte for byte', async () => {
    const files = t.app.get(StoredFiles);
    const content = randomBytes(Math.floor(STORE_CHUNK_BYTES * 2.5));
    const id = await files.store({
      kind: 'test',
      filename: 'big.bin',
      contentType: 'application/octet-stream',
      content,
      expires: new Date(Date.now() + 60_000),
    });
    const [file] = await files.findLive([id]);
    expect(file.size).toBe(content.length);
    expect(Buffer.compare(file.content, content)).toBe(0);
  });

  it('leaves no row when appending the later pieces fails', async () => {
    const files = t.app.get(StoredFiles);
    const before: { n: number }[] = await t.db.query('SELECT count(*)::int AS n FROM stored_file');
    // A rejected append of the staged pieces, simulated by a trigger that refuses it.
    await t.db.query(`CREATE FUNCTION refuse_append() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'append refused'; END $$`);
    await t.db.query(
      `CREATE TRIGGER refuse_append BEFORE UPDATE ON stored_file FOR EACH ROW EXECUTE FUNCTION refuse_append()`,
    );
    try {
      await expect(
        files.store({
          kind: 'test',
          filename: 'big.bin',
          contentType: 'application/octet-stream',
          content: randomBytes(STORE_CHUNK_BYTES + 10),
          expires: null,
        }),
      ).rejects.toThrow('append refused');
    } finally {
      await t.db.query('DROP TRIGGER refuse_append ON stored_file');
      await t.db.query('DROP FUNCTION refuse_append()');
    }
    expect(await t.db.query('SELECT count(*)::int AS n FROM stored_file')).toEqual(before);
  });

  const count = async (filename: string): Promise<number> =>
    (
      await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM stored_file WHERE filename = $1', [
        filename,
      ])
    )[0].n;

  it('writes a file of several pieces as it is produced, unseen until complete, and reads it back byte for byte', async () => {
    const files = t.app.get(StoredFiles);
    const content = randomBytes(Math.floor(STORE_CHUNK_BYTES * 3.3));
    const seenWhileWriting: number[] = [];
    const stored = await files.write(
      {
        kind: 'test',
        filename: 'streamed.bin',
        contentType: 'application/octet-stream',
        expires: new Date(Date.now() + 60_000),
      },
      async (out) => {
        // Uneven writes, so that pieces are cut across them.
        for (let at = 0; at < content.length; at += 100_003) {
          await put(out, content.subarray(at, at + 100_003));
          if (at > STORE_CHUNK_BYTES * 2 && seenWhileWriting.length === 0)
            seenWhileWriting.push(await count('streamed.bin'));
        }
      },
    );
    // Two pieces were stored by then, in a transaction no other connection sees.
    expect(seenWhileWriting).toEqual([0]);
    expect(stored.size).toBe(content.length);
    const [file] = await t.app.get(StoredFiles).findLive([stored.id]);
    expect(file.size).toBe(content.length);
    expect(file.filename).toBe('streamed.bin');
    expect(Buffer.compare(file.content, content)).toBe(0);
  });

  it('stores an empty file and one of exactly one piece', async () => {
    const files = t.app.get(StoredFiles);
    const meta = binaryMeta('small.bin');
    const empty = await files.write(meta, async () => undefined);
    const exact = randomBytes(STORE_CHUNK_BYTES);
    const one = await files.write(meta, (out) => put(out, exact));
    const found = await files.findLive([empty.id, one.id]);
    const byId = new Map(found.map((f) => [f.id, f]));
    expect(byId.get(empty.id)?.content.length).toBe(0);
    expect(byId.get(empty.id)?.size).toBe(0);
    expect(byId.get(one.id)?.size).toBe(STORE_CHUNK_BYTES);
    expect(Buffer.compare(byId.get(one.id)!.content, exact)).toBe(0);
  });

  it("stores two files of several pieces in the caller's transaction, each whole", async () => {
    const files = t.app.get(StoredFiles);
    const a = randomBytes(Math.floor(STORE_CHUNK_BYTES * 2.2));
    const b = randomBytes(Math.floor(STORE_CHUNK_BYTES * 1.7));
    const meta = binaryMeta('pair.bin');
    const ids = await t.db.transaction(async (em) => [
      (await files.write(meta, (out) => put(out, a), em)).id,
      await files.store({ ...meta, content: b }, em),
    ]);
    const found = await files.findLive(ids);
    const byId = new Map(found.map((f) => [f.id, f]));
    expect(byId.get(ids[0])?.size).toBe(a.length);
    expect(Buffer.compare(byId.get(ids[0])!.content, a)).toBe(0);
    expect(byId.get(ids[1])?.size).toBe(b.length);
    expect(Buffer.compare(byId.get(ids[1])!.content, b)).toBe(0);
  });

  it('gives a manager outside a transaction a transaction of its own', async () => {
    const files = t.app.get(StoredFiles);
    const content = randomBytes(Math.floor(STORE_CHUNK_BYTES * 1.5));
    const meta = binaryMeta('plain.bin');
    const stored = await files.write(meta, (out) => put(out, content), t.db.manager);
    const [file] = await files.findLive([stored.id]);
    expect(Buffer.compare(file.content, content)).toBe(0);
    await expect(
      files.write(
        { ...meta, filename: 'plain-broken.bin' },
        async (out) => {
          await put(out, content);
          throw new Error('producer failed');
        },
        t.db.manager,
      ),
    ).rejects.toThrow('producer failed');
    expect(await count('plain-broken.bin')).toBe(0);
  });

  it('leaves no row when the producer fails after several pieces', async () => {
    const files = t.app.get(StoredFiles);
    await expect(
      files.write(binaryMeta('broken.bin'), async (out) => {
        await put(out, randomBytes(STORE_CHUNK_BYTES * 2 + 10));
        throw new Error('producer failed');
      }),
    ).rejects.toThrow('producer failed');
    expect(await count('broken.bin')).toBe(0);
  });

  it('stores exports as they are written (CSV, JSON, XLSX of 60,000 rows) and reads them back whole', async () => {
    const files = t.app.get(StoredFiles);
    const read = async (format: 'csv' | 'json' | 'xlsx'): Promise<Buffer> => {
      const file = tablesFile(format, 'rows', [table(60)]);
      expect(file.filename).toBe(`rows.${format}`);
      const stored = await files.write(
        { kind: 'export', filename: file.filename, contentType: file.contentType, expires: null },
        (out) => file.write(out),
      );
      const [found] = await files.findLive([stored.id]);
      expect(found.size).toBe(stored.size);
      expect(found.content.length).toBe(stored.size);
      return found.content;
    };
    const csv = (await read('csv')).toString('utf8').trimEnd().split('\n');
    expect(csv.length).toBe(60_001);
    expect(csv[0]).toBe('ID,Text,Amount,Flag,At,Empty');
    expect(csv[60_000]).toBe(
      `59999,"row 59999, ""quoted"" ${'x'.repeat(59999 % 50)}",59999.50,false,${new Date(59_999_000).toISOString()},`,
    );
    const json = JSON.parse((await read('json')).toString('utf8')) as { Rows: Record<string, unknown>[] };
    expect(json.Rows.length).toBe(60_000);
    expect(json.Rows[12_345]).toEqual({
      ID: 12345,
      Text: `row 12345, "quoted" ${'x'.repeat(12345 % 50)}`,
      Amount: '12345.50',
      Flag: false,
      At: new Date(12_345_000).toISOString(),
      Empty: null,
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await read('xlsx')) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Rows')!;
    expect(sheet.rowCount).toBe(60_001);
    expect(sheet.getRow(60_001).getCell(1).value).toBe(59999);
    expect(sheet.getRow(2).getCell(2).value).toBe('row 0, "quoted" ');
  });

  it.each(['csv', 'json', 'xlsx'] as const)(
    'a %s export whose source fails after several pieces leaves no file',
    async (format) => {
      const files = t.app.get(StoredFiles);
      const file = tablesFile(format, `failing-${format}`, [table(400, 300)]);
      await expect(
        files.write(
          { kind: 'export', filename: file.filename, contentType: file.contentType, expires: null },
          (out) => file.write(out),
        ),
      ).rejects.toThrow('source failed');
      expect(await count(file.filename)).toBe(0);
    },
  );
});
