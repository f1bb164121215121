/** ZIP archives written by yazl (the exporter's own writer): what any ordinary tool makes. */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { manifestFor, type ExportFile } from './crafted-export';

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

/** A Pictor export of `files` and their manifest, written by yazl as `dir/name`. */
export function yazlExport(
  dir: string,
  files: readonly ExportFile[],
  name = 'export.zip',
): Promise<string> {
  return yazlArchive(join(dir, name), [
    ...files.map((file) => ({ name: file.path, data: file.data })),
    { name: 'pictor-export.json', data: manifestFor(files) },
  ]);
}
