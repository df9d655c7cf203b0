import { PassThrough } from 'stream';

/** The part of archiver's ZIP archive used here. */
interface ZipArchive {
  pipe(destination: NodeJS.WritableStream): void;
  append(source: Buffer | string, data: { name: string }): void;
  finalize(): Promise<void>;
  on(event: 'error' | 'warning', listener: (err: Error) => void): void;
}

/**
 * archiver 8 is an ES module: loaded with a real dynamic `import()`, which the CommonJS build would otherwise turn
 * into `require()`. The function body is a constant, no input is evaluated.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importEsm = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<{ ZipArchive: new (options: { zlib: { level: number } }) => ZipArchive }>;

/** A ZIP file (written with `archiver`) holding the given files, as bytes. */
export async function zipFiles(files: { name: string; content: string }[]): Promise<Buffer> {
  const { ZipArchive } = await importEsm('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    archive.on('error', reject);
  });
  archive.pipe(out);
  for (const f of files) archive.append(f.content, { name: f.name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}
