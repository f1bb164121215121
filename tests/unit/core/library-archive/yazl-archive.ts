/** ZIP archives written by yazl (the exporter's own writer): what any ordinary tool makes. */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export interface ArchiveFile {
  readonly name: string;
  readonly data: Buffer;
}

/** Writes `files` to the archive `path`, every one deflated; resolves once it is on disk. */
export async function yazlArchive(path: string, files: readonly ArchiveFile[]): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const file of files) zip.addBuffer(file.data, file.name, { compress: true });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}
