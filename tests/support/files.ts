/** What a test finds on disk: every file under a folder, however deep. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface FilesUnderOptions {
  /** `empty`: a folder that does not exist holds no files; `throw` (the default): it fails. */
  readonly missing?: 'empty' | 'throw';
}

/** Every file (not folder) under `folder`, as absolute paths, in no particular order. */
export async function filesUnder(
  folder: string,
  { missing = 'throw' }: FilesUnderOptions = {},
): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(
    (error: unknown) => {
      if (missing === 'empty' && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
