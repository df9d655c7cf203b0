import { imageProblem } from './image-check';

/** What `POST /api/v1/upload` takes: content type → the file name endings allowed with it (pretix `ALLOWED_TYPES`). */
export const UPLOAD_TYPES: Readonly<Record<string, readonly string[]>> = {
  'image/gif': ['.gif'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'application/pdf': ['.pdf'],
};

/** Largest upload in bytes (the body parser answers 413 above it; a file answer is checked against it too). */
export { UPLOAD_MAX_BYTES } from '../../common/http/body-parsing';

/** How long an upload may be used (pretix: a `CachedFile` expiring after one day). */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** DRF's `FileUploadParser` message for a request without a file name. */
export const MISSING_FILENAME =
  'Missing filename. Request should include a Content-Disposition header with a filename parameter.';

/**
 * The file name of a `Content-Disposition` header (`attachment; filename="x.png"`, or RFC 5987
 * `filename*=UTF-8''x%20y.png`, which wins), or null when it names none.
 */
export function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  let plain: string | null = null;
  let extended: string | null = null;
  for (const part of header.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (key === 'filename*') {
      const match = /^[^']*'[^']*'(.*)$/.exec(value);
      try {
        extended = decodeURIComponent(match ? match[1] : value);
      } catch {
        extended = null;
      }
    } else if (key === 'filename') {
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
        value = value.slice(1, -1).replace(/\\(.)/g, '$1');
      }
      plain = value;
    }
  }
  const name = extended ?? plain;
  return name === null || name === '' ? null : name;
}

/**
 * Checks an upload with pretix's rules and messages (`UploadView`): a file must come; its content type (parameters
 * such as `; charset=` ignored) must be one of {@link UPLOAD_TYPES}; its name must end in an extension of that type
 * (case-sensitive, as pretix); an image must be well-formed and not too large in pixels.
 * @returns pretix's message (400, a bare list), or null when the upload is fine
 */
export function uploadProblem(contentType: string, filename: string, body: Buffer): string | null {
  if (body.length === 0) return 'No file has been submitted.';
  const extensions = UPLOAD_TYPES[contentType];
  if (!extensions) return `Content type "${contentType}" is not allowed`;
  if (!extensions.some((ext) => filename.endsWith(ext))) {
    return `File name "${filename}" has an invalid extension for type "${contentType}"`;
  }
  return imageProblem(contentType, body);
}

/** The media type of a `Content-Type` header without parameters, lower-cased (`image/png; x=y` → `image/png`). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}
