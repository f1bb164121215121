/**
 * An archive the project's own export wrote, changed the way a person with a ZIP tool would: its
 * entries read back with the import's reader, a task's sidecar edited, the manifest's size and
 * SHA-256 of that entry made to match, and the whole written again with yazl (the exporter's
 * writer). What the import then meets is a valid archive saying something crafted.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../../../electron/core/library/archive/archive-limits';
import { readBounded } from '../../../../../electron/core/library/archive/stream-copy';
import { openZipSource } from '../../../../../electron/core/library/archive/zip-source';
import { yazlArchive, type ArchiveFile } from './yazl-archive';

const MANIFEST = 'pictor-export.json';

interface ManifestJson {
  entries: Array<{ path: string; size: number; sha256: string }>;
}

async function entriesOf(file: string): Promise<ArchiveFile[]> {
  const source = await openZipSource(file, (await stat(file)).size, DEFAULT_ARCHIVE_LIMITS);
  try {
    const read: ArchiveFile[] = [];
    for (const entry of source.files) {
      read.push({ name: entry.path, data: await readBounded(await entry.open(), 1 << 26) });
    }
    return read;
  } finally {
    await source.close();
  }
}

/**
 * Writes `target`: the archive `file` with each task sidecar's record passed through `edit`
 * (called with the record; the same object leaves the entry as it was).
 */
export async function editArchive(
  file: string,
  target: string,
  edit: (record: TaskRecord) => TaskRecord,
): Promise<string> {
  const entries = await entriesOf(file);
  const manifestEntry = entries.find((entry) => entry.name === MANIFEST);
  if (!manifestEntry) throw new Error(`${file} has no manifest`);
  const manifest = JSON.parse(manifestEntry.data.toString('utf8')) as ManifestJson;
  const edited = entries.map((entry): ArchiveFile => {
    if (!entry.name.endsWith('/pictor.json')) return entry;
    const sidecar = JSON.parse(entry.data.toString('utf8')) as { record: TaskRecord };
    const record = edit(sidecar.record);
    if (record === sidecar.record) return entry;
    const data = Buffer.from(`${JSON.stringify({ ...sidecar, record }, null, 2)}\n`);
    const listed = manifest.entries.find((line) => line.path === entry.name);
    if (listed) {
      listed.size = data.length;
      listed.sha256 = createHash('sha256').update(data).digest('hex');
    }
    return { name: entry.name, data };
  });
  return yazlArchive(
    target,
    edited.map((entry) =>
      entry.name === MANIFEST
        ? { name: MANIFEST, data: Buffer.from(JSON.stringify(manifest)) }
        : entry,
    ),
  );
}
