/**
 * What a gallery move carries: Pictor's own task folders, and the input store (relocate-inputs.ts)
 * and nothing else. A task folder is a
 * folder (at most {@link MAX_DEPTH} levels below the root, normally `YYYY/MM/<task>`) holding a
 * regular `pictor.json` whose envelope says `"app": "pictor"` and names the task. Everything in
 * it that is a regular file or a folder is carried (images, `.thumbs/`); links, FIFOs and
 * devices are not, and are reported as left behind. Links are never followed, in the source or
 * the target, and `.pictor-tmp` is never carried.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readRegularFile, TEMP_DIR } from '../fs';
import { MAX_SIDECAR_BYTES, SIDECAR_NAME } from '../gallery';

/** Same depth as rebuild.ts looks for sidecars: folders the user regrouped stay where they are. */
const MAX_DEPTH = 8;

/** One file of a task folder: its path inside the folder (`/` separators) and its size. */
export interface PlannedFile {
  readonly path: string;
  readonly size: number;
}

export interface TaskFolderPlan {
  /** Root-relative, with `/` separators (the same in the old and the new gallery). */
  readonly relative: string;
  readonly localId: string;
  /** Sub-folders, parents first, relative to the task folder. */
  readonly folders: readonly string[];
  readonly files: readonly PlannedFile[];
}

export interface SourcePlan {
  readonly tasks: readonly TaskFolderPlan[];
  /** Root-relative paths inside task folders that are not carried (links, FIFOs, devices). */
  readonly notCarried: readonly string[];
}

const envelopeSchema = z.object({
  app: z.literal('pictor'),
  record: z.object({ localId: z.string().min(1) }),
});

/**
 * The task a folder's `pictor.json` names, or `null` when there is no regular sidecar there
 * inside `root` (a link is not one, nor a file a swapped folder leads to) or it is not Pictor's.
 */
export async function sidecarTaskId(root: string, folder: string): Promise<string | null> {
  try {
    const text = await readRegularFile(root, join(folder, SIDECAR_NAME), MAX_SIDECAR_BYTES);
    const parsed = envelopeSchema.safeParse(JSON.parse(text.toString('utf8')));
    return parsed.success ? parsed.data.record.localId : null;
  } catch {
    return null;
  }
}

async function listTaskFolder(
  folder: string,
  relative: string,
  notCarried: string[],
): Promise<Pick<TaskFolderPlan, 'folders' | 'files'>> {
  const folders: string[] = [];
  const files: PlannedFile[] = [];
  const walk = async (dir: string, inside: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = inside ? `${inside}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.push(path);
        await walk(join(dir, entry.name), path);
      } else if (entry.isFile()) {
        files.push({ path, size: (await lstat(join(dir, entry.name))).size });
      } else notCarried.push(`${relative}/${path}`);
    }
  };
  await walk(folder, '');
  return { folders, files };
}

/** Finds every task folder under `root`, without following a link. */
export async function planSource(root: string): Promise<SourcePlan> {
  const tasks: TaskFolderPlan[] = [];
  const notCarried: string[] = [];
  const visit = async (dir: string, relative: string, depth: number): Promise<void> => {
    const localId = depth > 0 ? await sidecarTaskId(root, dir) : null;
    if (localId !== null) {
      tasks.push({ relative, localId, ...(await listTaskFolder(dir, relative, notCarried)) });
      return;
    }
    if (depth >= MAX_DEPTH) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || (depth === 0 && entry.name === TEMP_DIR)) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      await visit(join(dir, entry.name), child, depth + 1);
    }
  };
  await visit(root, '', 0);
  tasks.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { tasks, notCarried };
}
