/**
 * The planted-link tests' folders: a data folder of Pictor's (0700) and, beside it, a folder of
 * the user's that others may read (0755, as they chose) holding a few files, which a link another
 * local user left in the data folder points at. Made for every test of the file that calls this,
 * removed when it ends (tests/support/per-test.ts).
 */
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fieldsOf, perTest } from '../../support/per-test';
import { removeFolder, tempFolder } from '../../support/temp-folders';

export interface PlantedLinkFolders {
  /** Pictor's data folder, made 0700. */
  readonly data: string;
  /** The user's folder a planted link points at, 0755, holding `files`. */
  readonly theirs: string;
  /** What the user's folder holds now (sorted names) and its mode. */
  theirFolder(): Promise<{ names: string[]; mode: number }>;
}

export function plantedLinkFolders(name: string, files: readonly string[]): PlantedLinkFolders {
  const made = perTest(
    'plantedLinkFolders',
    async () => {
      const root = await tempFolder(name);
      const data = join(root, 'data');
      const theirs = join(root, 'theirs');
      await mkdir(data, { mode: 0o700 });
      await mkdir(theirs);
      await chmod(theirs, 0o755);
      for (const file of files) await writeFile(join(theirs, file), file);
      return { root, data, theirs };
    },
    ({ root }) => removeFolder(root),
  );
  const own = {
    async theirFolder() {
      const { theirs } = made();
      return { names: (await readdir(theirs)).sort(), mode: (await stat(theirs)).mode & 0o777 };
    },
  };
  return fieldsOf(made, ['data', 'theirs'], own);
}
