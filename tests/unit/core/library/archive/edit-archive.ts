/**
 * An archive the project's own export wrote, changed the way a person with a ZIP tool would: its
 * entries read back with the import's reader, a task's sidecar edited, the manifest's size and
 * SHA-256 of that entry made to match, and the whole written again with yazl (the exporter's
 * writer). What the import then meets is a valid archive saying something crafted.
 */
import { createHash } from 'node:crypto';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { archiveEntries } from '../../../../support/archive-entries';
import { yazlArchive, type ArchiveFile } from './yazl-archive';

const MANIFEST = 'pictor-export.json';

interface ManifestJson {
  entries: Array<{ path: string; size: number; sha256: string }>;
}

async function entriesOf(file: string): Promise<ArchiveFile[]> {
  return [...(await archiveEntries(file))].map(([name, data]) => ({ name, data }));
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
