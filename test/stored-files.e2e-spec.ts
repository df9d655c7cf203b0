import { randomBytes } from 'crypto';
import { STORE_CHUNK_BYTES, StoredFiles } from '../src/tasks/stored-files.service';
import { startTestApp, TestApp } from './harness';

/**
 * Stored files travel to PostgreSQL in pieces (`STORE_CHUNK_BYTES`, so an export's hex-encoded parameter does not
 * double its memory): a file of several pieces comes back byte for byte with its size, and one that fails half-way
 * leaves no row (the pieces are written in one transaction).
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

  it('leaves no row when a later piece fails', async () => {
    const files = t.app.get(StoredFiles);
    const before: { n: number }[] = await t.db.query('SELECT count(*)::int AS n FROM stored_file');
    // A rejected piece, simulated by a trigger that refuses the first append.
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
});
