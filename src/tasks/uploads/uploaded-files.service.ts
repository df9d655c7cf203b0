import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { InvalidRequest, ValidationFailed } from '../../common/errors';
import { credentialOf } from '../principal-credential';
import { isUuid, StoredFiles } from '../stored-files.service';
import { KeptFile, UploadedFileQueries, UploadFacts } from './uploaded-file.queries';
import {
  dispositionFilename,
  mediaType,
  MISSING_FILENAME,
  UPLOAD_MAX_BYTES,
  UPLOAD_TTL_MS,
  UPLOAD_TYPES,
  uploadProblem,
} from './upload-rules';

/** A request's upload: its headers and raw body. */
export interface UploadRequest {
  contentType: string | undefined;
  contentDisposition: string | undefined;
  body: Buffer;
}

/** What a `file:<uuid>` reference in an answer names: a usable upload of the credential, or why not. */
export type FileReferenceCheck = { ok: true; upload: UploadFacts } | { ok: false; message: string };

/** The prefix of an upload reference (`file:<uuid>`, pretix). */
export const FILE_REF_PREFIX = 'file:';
/** The prefix of a stored answer that names a kept file (`file://<uuid>`; pretix stores `file://<name>`). */
export const KEPT_FILE_PREFIX = 'file://';

/**
 * Uploads (`POST /api/v1/upload`, pretix `UploadView` and `CachedFile`): files a client sends before it names them
 * in an answer as `file:<uuid>`. An upload is bound to the credential that made it and expires after a day (the
 * stored-file purge deletes it); using it in an answer keeps a copy that does not expire.
 */
@Injectable()
export class UploadedFiles {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly files: StoredFiles,
    private readonly queries: UploadedFileQueries,
  ) {}

  /**
   * Stores an upload of `principal` (pretix rules: see `uploadProblem`).
   * @returns `{"id": "file:<uuid>"}` (201)
   * @throws InvalidRequest `{"detail": MISSING_FILENAME}` without a file name (400, DRF's `FileUploadParser`)
   * @throws ValidationFailed a bare list with pretix's message for a refused file (400)
   */
  async upload(principal: Principal, request: UploadRequest): Promise<{ id: string }> {
    const filename = dispositionFilename(request.contentDisposition);
    if (filename === null) throw new InvalidRequest(MISSING_FILENAME);
    const contentType = mediaType(request.contentType);
    const problem = uploadProblem(contentType, filename, request.body);
    if (problem) throw new ValidationFailed([problem]);
    const credential = credentialOf(principal);
    const id = await this.files.store({
      kind: 'upload',
      filename,
      contentType,
      content: request.body,
      credential,
      expires: new Date(Date.now() + UPLOAD_TTL_MS),
    });
    return { id: `${FILE_REF_PREFIX}${id}` };
  }

  /**
   * Checks `file:<uuid>` references as pretix checks a file answer (`_handle_file_upload`): the upload must exist,
   * be unexpired and made by `principal`'s credential, have an allowed type and be at most the size limit. One
   * statement for all of them (none when none names a UUID).
   * @returns per reference, the upload or pretix's message
   */
  async check(
    em: EntityManager,
    principal: Principal,
    refs: readonly string[],
  ): Promise<Map<string, FileReferenceCheck>> {
    const ids = [...new Set(refs.map(uploadIdOf).filter((id): id is string => id !== null))];
    const found = ids.length > 0 ? await this.queries.usable(em, credentialOf(principal), ids) : [];
    const byId = new Map(found.map((u) => [u.id, u]));
    return new Map(
      refs.map((ref): [string, FileReferenceCheck] => {
        const id = uploadIdOf(ref);
        const upload = id === null ? undefined : byId.get(id);
        if (!upload) return [ref, { ok: false, message: `The submitted file ID "${ref}" was not found.` }];
        if (!UPLOAD_TYPES[upload.contentType]) {
          const message = `The submitted file "${ref}" has a file type that is not allowed in this field.`;
          return [ref, { ok: false, message }];
        }
        if (upload.size > UPLOAD_MAX_BYTES) {
          return [ref, { ok: false, message: `The submitted file "${ref}" is too large to be used in this field.` }];
        }
        return [ref, { ok: true, upload }];
      }),
    );
  }

  /**
   * Keeps a copy of upload `uploadId` for an answer of organizer `organizerId`, in the caller's transaction (one
   * statement); the copy does not expire.
   * @returns the stored answer text, `file://<uuid of the copy>`
   * @throws Error when the upload is gone (checked by {@link check} in the same transaction before)
   */
  async keep(em: EntityManager, uploadId: string, organizerId: number): Promise<string> {
    const id = randomUUID();
    if (!(await this.queries.keep(em, uploadId, id, organizerId))) throw new Error(`upload ${uploadId} is gone`);
    return `${KEPT_FILE_PREFIX}${id}`;
  }

  /** The kept file a stored answer names (`file://<uuid>`) for organizer `organizerId`, or undefined. */
  async kept(organizerId: number, answer: string): Promise<KeptFile | undefined> {
    const id = keptIdOf(answer);
    if (id === null) return undefined;
    return this.queries.kept(this.em, organizerId, id);
  }
}

/** The upload id of a `file:<uuid>` reference, or null when it names none. */
export function uploadIdOf(ref: string): string | null {
  if (!ref.startsWith(FILE_REF_PREFIX) || ref.startsWith(KEPT_FILE_PREFIX)) return null;
  const id = ref.slice(FILE_REF_PREFIX.length).toLowerCase();
  return isUuid(id) ? id : null;
}

/** The kept file id of a stored answer `file://<uuid>`, or null when the answer names none. */
export function keptIdOf(answer: string): string | null {
  if (!answer.startsWith(KEPT_FILE_PREFIX)) return null;
  const id = answer.slice(KEPT_FILE_PREFIX.length);
  return isUuid(id) ? id : null;
}
