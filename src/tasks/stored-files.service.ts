import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource, EntityManager } from 'typeorm';
import { returning } from './sql';
import { StoredFile } from './stored-file.entity';

/** A file to store: bytes with a name and content type. */
export interface NewFile {
  kind: string;
  filename: string;
  contentType: string;
  content: Buffer;
  organizerId?: number | null;
  taskId?: string | null;
  /** Null keeps the file until its owner deletes it. */
  expires: Date | null;
}

/** Bytes of a file sent to PostgreSQL per statement by {@link StoredFiles.store}. */
export const STORE_CHUNK_BYTES = 4 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string can be a stored file or task id (a UUID); other strings name nothing. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Generated files in PostgreSQL (`stored_file`) with their expiry (architecture.md "Processes"). */
@Injectable()
export class StoredFiles {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Stores a file (in the caller's transaction when `em` is given, else in one of its own). The content travels in
   * pieces of {@link STORE_CHUNK_BYTES} (the first with the row, the others appended): `pg` sends a `bytea`
   * parameter as a hex string of twice its size, so a 35 MB export would otherwise need another 70 MB at once.
   * @returns its random id
   */
  async store(file: NewFile, em?: EntityManager): Promise<string> {
    if (!em) return this.db.transaction((tx) => this.store(file, tx));
    const id = randomUUID();
    const { content } = file;
    await em.insert(StoredFile, {
      id,
      kind: file.kind,
      filename: file.filename.slice(0, 255),
      contentType: file.contentType.slice(0, 127),
      content: content.subarray(0, STORE_CHUNK_BYTES),
      size: content.length,
      organizerId: file.organizerId ?? null,
      taskId: file.taskId ?? null,
      expires: file.expires,
    });
    for (let at = STORE_CHUNK_BYTES; at < content.length; at += STORE_CHUNK_BYTES) {
      await em.query('UPDATE stored_file SET content = content || $1 WHERE id = $2', [
        content.subarray(at, at + STORE_CHUNK_BYTES),
        id,
      ]);
    }
    return id;
  }

  /** The files with these ids that have not expired (content included), in one statement. */
  async findLive(ids: readonly string[]): Promise<StoredFile[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return this.db
      .getRepository(StoredFile)
      .createQueryBuilder('f')
      .where('f.id IN (:...ids)', { ids: valid })
      .andWhere('(f.expires IS NULL OR f.expires > now())')
      .getMany();
  }

  /** Deletes the files with these ids (in the caller's transaction when `em` is given). */
  async delete(ids: readonly string[], em: EntityManager = this.db.manager): Promise<void> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return;
    await em.delete(StoredFile, valid);
  }

  /**
   * Deletes expired files, at most `limit` per call; rows another worker is deleting are skipped
   * (`FOR UPDATE SKIP LOCKED`). @returns the number deleted
   */
  async purgeExpired(limit = 500): Promise<number> {
    const rows = await returning<{ id: string }>(
      this.db,
      `DELETE FROM stored_file WHERE id IN (
         SELECT id FROM stored_file WHERE expires < now() ORDER BY expires LIMIT $1 FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
      [limit],
    );
    return rows.length;
  }
}
