import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Credential } from '../principal-credential';
import { returning } from '../returning.queries';

/** An upload as a file answer checks it: its type and size (bytes). */
export interface UploadFacts {
  id: string;
  contentType: string;
  size: number;
}

/** A kept file as its download sends it. */
export interface KeptFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** The SQL of uploads (`stored_file` rows of kind `upload`) and the files kept from them. Stateless. */
@Injectable()
export class UploadedFileQueries {
  /** The unexpired uploads among `ids` (valid UUIDs) that `credential` made, without their content (one statement). */
  async usable(em: EntityManager, credential: Credential, ids: readonly string[]): Promise<UploadFacts[]> {
    return em.query(
      `SELECT id::text AS id, content_type AS "contentType", size FROM stored_file
        WHERE id = ANY($1::uuid[]) AND kind = 'upload' AND credential_kind = $2 AND credential_id = $3
          AND expires > now()`,
      [[...ids], credential.kind, credential.id],
    );
  }

  /**
   * Copies upload `uploadId` into a new file `newId` of kind `answer_file` that does not expire, for organizer
   * `organizerId` (one statement). @returns whether the upload was there
   */
  async keep(em: EntityManager, uploadId: string, newId: string, organizerId: number): Promise<boolean> {
    const rows = await returning<{ id: string }>(
      em,
      `INSERT INTO stored_file (id, kind, filename, content_type, content, size, organizer_id, expires)
       SELECT $2, 'answer_file', filename, content_type, content, size, $3, NULL FROM stored_file
        WHERE id = $1 AND kind = 'upload'
       RETURNING id`,
      [uploadId, newId, organizerId],
    );
    return rows.length > 0;
  }

  /** A kept answer file of organizer `organizerId`, content included, or undefined (one statement). */
  async kept(em: EntityManager, organizerId: number, id: string): Promise<KeptFile | undefined> {
    const rows: KeptFile[] = await em.query(
      `SELECT filename, content_type AS "contentType", content FROM stored_file
        WHERE id = $1 AND kind = 'answer_file' AND organizer_id = $2`,
      [id, organizerId],
    );
    return rows[0];
  }
}
