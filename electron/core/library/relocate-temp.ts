/** A move's copies in the target's `.pictor-tmp` (relocate.ts), named as this process's. */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureFolder, isOwnTempName, linkRefusal, sweepLeftoverTemps, TEMP_DIR } from '../fs';

/** Of this process's temporary names (temp-names.ts), those of a move's copies. */
export const MOVE_SUFFIX = '.move';

export const isOwnMove = (name: string): boolean =>
  isOwnTempName(name) && name.endsWith(MOVE_SUFFIX);

/**
 * The target's `.pictor-tmp`, a real folder (a link there is refused), emptied of leftovers: this
 * process's earlier tries (one move runs at a time) and what no live process will finish.
 */
export async function prepareTargetTemp(
  target: string,
  options: { readonly now?: (() => number) | undefined },
): Promise<string> {
  const temp = join(target, TEMP_DIR);
  const info = await lstat(temp).catch(() => null);
  if (info?.isSymbolicLink()) throw linkRefusal(temp);
  await ensureFolder(target, temp);
  await sweepLeftoverTemps(target, temp, {
    nowMs: (options.now ?? Date.now)(),
    alsoRemove: isOwnMove,
  });
  return temp;
}
