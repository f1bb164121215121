/**
 * Every entry of a library archive, by its path, read with the import's own reader
 * (core/library/archive/zip-source.ts, the default limits), each read whole up to 64 MiB: what
 * the export suites look through for a key or a field, and what edit-archive.ts rewrites.
 */
import { stat } from 'node:fs/promises';
import { DEFAULT_ARCHIVE_LIMITS } from '../../electron/core/library/archive/archive-limits';
import { readBounded } from '../../electron/core/library/archive/stream-copy';
import { openZipSource } from '../../electron/core/library/archive/zip-source';

const MAX_ENTRY_BYTES = 1 << 26;

export async function archiveEntries(file: string): Promise<Map<string, Buffer>> {
  const source = await openZipSource(file, (await stat(file)).size, DEFAULT_ARCHIVE_LIMITS);
  const out = new Map<string, Buffer>();
  try {
    for (const entry of source.files) {
      out.set(entry.path, await readBounded(await entry.open(), MAX_ENTRY_BYTES));
    }
  } finally {
    await source.close();
  }
  return out;
}
