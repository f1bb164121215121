/**
 * A private file the app keeps in its data folder (the model options it read, a ComfyUI
 * workflow): written whole or not at all, readable by its user alone, in folders only its user
 * can list.
 */
import { dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-file';
import { ensurePrivateFolderBelow } from './contained-fs';
import { PRIVATE_FILE_MODE, ensurePrivateFolder } from './private-files';
import { TEMP_DIR } from './temp-names';

/**
 * Writes `data` to `target` (in `dataDir` or a folder below it) atomically with the private mode;
 * the data folder is made private first, then the target's folder and the temporary folder real
 * private folders in it (a link there is refused before any chmod, never followed).
 */
export async function writePrivateFile(
  dataDir: string,
  target: string,
  data: string | Uint8Array,
): Promise<void> {
  await ensurePrivateFolder(dataDir);
  await ensurePrivateFolderBelow(dataDir, dirname(target));
  await ensurePrivateFolderBelow(dataDir, join(dataDir, TEMP_DIR));
  await writeFileAtomic(dataDir, target, data, PRIVATE_FILE_MODE);
}
