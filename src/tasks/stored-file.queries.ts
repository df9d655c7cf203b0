import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { returning } from './returning.queries';
import { StoredFile } from './stored-file.entity';

/** The SQL of the `stored_file` table and its staging table `stored_file_piece`. Stateless. */
@Injectable()
export class StoredFileQueries {
  /** Creates the transaction's staging table of file pieces (dropped at commit) unless it exists. */
  async createPieceTable(em: EntityManager): Promise<void> {
    await em.query(
      `CREATE TEMP TABLE IF NOT EXISTS stored_file_piece (file_id uuid NOT NULL, seq int NOT NULL, data bytea NOT NULL)
             ON COMMIT DROP`,
    );
  }

  /** Stages piece `seq` of file `fileId`. */
  async stagePiece(em: EntityManager, fileId: string, seq: number, data: Buffer): Promise<void> {
    await em.query('INSERT INTO stored_file_piece (file_id, seq, data) VALUES ($1, $2, $3)', [
      fileId,
      seq,
      data,
    ]);
  }

  /** Appends the staged pieces of file `fileId` to its content (in order) and sets its size (bytes). */
  async appendPieces(em: EntityManager, fileId: string, size: number): Promise<void> {
    await em.query(
      `UPDATE stored_file
            SET content = content || (SELECT string_agg(data, ''::bytea ORDER BY seq) FROM stored_file_piece
                                       WHERE file_id = $1),
                size = $2
          WHERE id = $1`,
      [fileId, size],
    );
  }

  /** The unexpired files with these ids (valid UUIDs only), content included. */
  findLive(em: EntityManager, ids: readonly string[]): Promise<StoredFile[]> {
    return em
      .getRepository(StoredFile)
      .createQueryBuilder('f')
      .where('f.id IN (:...ids)', { ids })
      .andWhere('(f.expires IS NULL OR f.expires > now())')
      .getMany();
  }

  /** Deletes up to `limit` expired files, skipping rows another worker holds (`FOR UPDATE SKIP LOCKED`). */
  purgeExpired(em: EntityManager, limit: number): Promise<{ id: string }[]> {
    return returning<{ id: string }>(
      em,
      `DELETE FROM stored_file WHERE id IN (
         SELECT id FROM stored_file WHERE expires < now() ORDER BY expires LIMIT $1 FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
      [limit],
    );
  }
}
