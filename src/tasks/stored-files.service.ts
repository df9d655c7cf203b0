import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { Writable } from 'stream';
import { finished } from 'stream/promises';
import { DataSource, EntityManager } from 'typeorm';
import type { Credential } from './principal-credential';
import { StoredFileQueries } from './stored-file.queries';
import { StoredFile } from './stored-file.entity';

/** A file to store: bytes with a name and content type. */
export interface NewFile {
  kind: string;
  filename: string;
  contentType: string;
  content: Buffer;
  organizerId?: number | null;
  taskId?: string | null;
  /** The credential that uploaded the file (`POST /api/v1/upload`), the only one that may use it. */
  credential?: Credential | null;
  /** Null keeps the file until its owner deletes it. */
  expires: Date | null;
}

/** A file to write: its name, type, owner and expiry, without the content. */
export type FileMeta = Omit<NewFile, 'content'>;

/** Writes a file's bytes into a {@link Writable} (see {@link StoredFiles.write}). */
export type FileProducer = (out: Writable) => Promise<void>;

/**
 * Bytes of a file sent to PostgreSQL per statement: `pg` sends a `bytea` parameter as a hex string of twice its
 * size, so a piece costs about three times this much memory while it travels.
 */
export const STORE_CHUNK_BYTES = 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string can be a stored file or task id (a UUID); other strings name nothing. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Generated files in PostgreSQL (`stored_file`) with their expiry (architecture.md "Processes"). */
@Injectable()
export class StoredFiles {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: StoredFileQueries,
  ) {}

  /**
   * Stores a file held in memory (in the caller's transaction when `em` is in one, else in one of its own), in
   * pieces as {@link write} does. @returns its random id
   */
  async store(file: NewFile, em?: EntityManager): Promise<string> {
    const { content, ...meta } = file;
    const stored = await this.write(meta, (out) => endWith(out, content), em);
    return stored.id;
  }

  /**
   * Stores a file as `produce` writes it, in pieces of {@link STORE_CHUNK_BYTES} sent while it writes, with
   * back-pressure, so memory holds about one piece whatever the file's size. The first piece goes with the row (a
   * small file costs one `INSERT`); later ones are staged in a temporary table (`stored_file_piece`, dropped at
   * commit) and appended to the row by one statement at the end, so that PostgreSQL rewrites the value once (an
   * append per piece would rewrite it per piece: quadratic). All of it happens in one transaction (the caller's
   * when `em` is in one): no reader sees a file before it is complete, and a producer that throws, a failed
   * statement or a killed process leaves no row. `produce` may end the stream itself (a pipe does) or leave that
   * to this method.
   * @returns the file's random id and its size in bytes
   * @throws what `produce` or PostgreSQL throws (the transaction is rolled back)
   */
  async write(
    meta: FileMeta,
    produce: FileProducer,
    em?: EntityManager,
  ): Promise<{ id: string; size: number }> {
    // A manager outside a transaction (such as `db.manager`) gets one of its own.
    if (!em?.queryRunner?.isTransactionActive)
      return this.db.transaction((tx) => this.write(meta, produce, tx));
    const id = randomUUID();
    let size = 0;
    let inserted = false;
    let staged = 0;
    const sink = new PieceWriter(STORE_CHUNK_BYTES, async (piece) => {
      size += piece.length;
      if (!inserted) {
        inserted = true;
        await em.insert(StoredFile, {
          id,
          kind: meta.kind,
          filename: meta.filename.slice(0, 255),
          contentType: meta.contentType.slice(0, 127),
          content: piece,
          size,
          organizerId: meta.organizerId ?? null,
          taskId: meta.taskId ?? null,
          credentialKind: meta.credential?.kind ?? null,
          credentialId: meta.credential?.id ?? null,
          expires: meta.expires,
        });
        return;
      }
      if (staged === 0) await this.queries.createPieceTable(em);
      staged += 1;
      await this.queries.stagePiece(em, id, staged, piece);
    });
    // A failed piece fails the stream; a producer waiting on it (a pipe stops writing) must not hang the run.
    const failed = new Promise<never>((_, reject) => sink.on('error', reject));
    failed.catch(() => undefined);
    try {
      await Promise.race([produce(sink), failed]);
      if (!sink.writableEnded) sink.end();
      await Promise.race([finished(sink), failed]);
    } catch (err) {
      sink.destroy();
      throw err;
    }
    if (staged > 0) await this.queries.appendPieces(em, id, size);
    return { id, size };
  }

  /** The files with these ids that have not expired (content included), in one statement. */
  async findLive(ids: readonly string[]): Promise<StoredFile[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return this.queries.findLive(this.db.manager, valid);
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
    const rows = await this.queries.purgeExpired(this.db.manager, limit);
    return rows.length;
  }
}

/** Ends `out` with `content`, resolving once it has been written. */
function endWith(out: Writable, content: Buffer): Promise<void> {
  return new Promise((resolve) => out.end(content, resolve));
}

/**
 * A writable that hands its bytes on in pieces of exactly `pieceBytes` (the last one shorter, and an empty one for
 * an empty file), one at a time: a write that completes a piece is acknowledged once `flush` has stored it.
 */
class PieceWriter extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushed = false;

  constructor(
    private readonly pieceBytes: number,
    private readonly flush: (piece: Buffer) => Promise<void>,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.pieceBytes) return done();
    this.flushFull().then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.flushed && this.pendingBytes === 0) return done();
    this.flushPiece(this.take(this.pendingBytes)).then(() => done(), done);
  }

  private async flushFull(): Promise<void> {
    while (this.pendingBytes >= this.pieceBytes) await this.flushPiece(this.take(this.pieceBytes));
  }

  private flushPiece(piece: Buffer): Promise<void> {
    this.flushed = true;
    return this.flush(piece);
  }

  /** Removes the first `bytes` pending bytes (views, not copies, where a chunk is split). */
  private take(bytes: number): Buffer {
    const all = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    const rest = all.subarray(bytes);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return all.subarray(0, bytes);
  }
}
