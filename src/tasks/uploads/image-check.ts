import { crc32 } from 'zlib';

/** Most pixels an uploaded picture may have (Pillow's `MAX_IMAGE_PIXELS`, the bound pretix checks with). */
export const MAX_IMAGE_PIXELS = 89_478_485;

/** pretix's message for bytes that are not a readable image of the declared type. */
export const INVALID_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';
/** pretix's message for a picture with more than {@link MAX_IMAGE_PIXELS} pixels. */
export const TOO_MANY_PIXELS =
  'The file you uploaded has a very large number of pixels, please upload a picture with smaller dimensions.';

/** Width and height of an image, or null when the bytes are not a well-formed image of that type. */
type Size = { width: number; height: number } | null;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG's size after walking its chunks: signature, `IHDR` first, every chunk inside the file with a correct CRC,
 * at least one `IDAT`, ending with `IEND` (what Pillow's `verify()` checks of a PNG, without decoding pixels).
 */
function pngSize(buf: Buffer): Size {
  if (buf.length < 33 || !buf.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let at = 8;
  let size: Size = null;
  let sawData = false;
  while (at + 12 <= buf.length) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > buf.length) return null;
    if (crc32(buf.subarray(at + 4, at + 8 + length)) !== buf.readUInt32BE(at + 8 + length)) return null;
    if (at === 8) {
      if (type !== 'IHDR' || length !== 13) return null;
      size = { width: buf.readUInt32BE(at + 8), height: buf.readUInt32BE(at + 12) };
    }
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData && size && size.width > 0 && size.height > 0 ? size : null;
    at = end;
  }
  return null;
}

/** A JPEG's size from its start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC), after `FF D8`. */
function jpegSize(buf: Buffer): Size {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= buf.length) {
    if (buf[at] !== 0xff) return null;
    const marker = buf[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = buf.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > buf.length) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) {
      if (length < 7) return null;
      const height = buf.readUInt16BE(at + 5);
      const width = buf.readUInt16BE(at + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan or end before any frame header
    at += 2 + length;
  }
  return null;
}

/** A GIF's logical screen size (`GIF87a`/`GIF89a` header), with at least one image or trailer after it. */
function gifSize(buf: Buffer): Size {
  if (buf.length < 14) return null;
  const magic = buf.toString('latin1', 0, 6);
  if (magic !== 'GIF87a' && magic !== 'GIF89a') return null;
  const width = buf.readUInt16LE(6);
  const height = buf.readUInt16LE(8);
  return width > 0 && height > 0 ? { width, height } : null;
}

const SIZE_OF: Record<string, (buf: Buffer) => Size> = {
  'image/png': pngSize,
  'image/jpeg': jpegSize,
  'image/gif': gifSize,
};

/**
 * Checks uploaded image bytes as pretix does before it keeps them (`validate_uploaded_file_for_valid_image`):
 * the bytes must be a well-formed image of the declared type, of at most {@link MAX_IMAGE_PIXELS} pixels.
 * @returns pretix's message for the problem ({@link INVALID_IMAGE}, {@link TOO_MANY_PIXELS}), or null when fine
 *   (also for a type that is not an image)
 */
export function imageProblem(contentType: string, buf: Buffer): string | null {
  const sizeOf = SIZE_OF[contentType];
  if (!sizeOf) return null;
  const size = sizeOf(buf);
  if (!size) return INVALID_IMAGE;
  return size.width * size.height > MAX_IMAGE_PIXELS ? TOO_MANY_PIXELS : null;
}
