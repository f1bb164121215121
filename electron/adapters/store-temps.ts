/**
 * The temporary files writers of a store's JSON file leave beside it (`settings.json.…`), and
 * which of them are leftovers. Each write goes to a temporary file renamed over the file; a
 * writer killed between the two leaves its temporary file, and nothing removed one at the next
 * start: they piled up, one per kill. Three writers name them:
 * - JsonFileKv (every `pictor` command) today: `<file>.<host tag>-<pid>-<random>.s<start>.tmp`
 *   (temp-names.ts; without `.s<start>` before it was named), written holding the store's lock
 *   (store-lock.ts);
 * - JsonFileKv of earlier versions: `<file>.<pid>-<12 hex>.tmp`, without the lock;
 * - electron-store (the app), through `atomically`: `<file>.tmp-<10 digits><6 hex>`, no owner.
 *
 * Removed holding the store's lock, so no writer of today is between its write and its rename: a
 * temporary file of today's naming is a leftover. An earlier version's command writes without the
 * lock: its file is a leftover once its process is gone. electron-store's names say no owner: one
 * is a leftover only for the app at its start (`ownerless: true`), the one app of its data folder
 * (Electron's single-instance lock) before its first write; a command leaves them, as an earlier
 * app could be writing one (a command runs beside any app). Past a day any of them is a
 * leftover, as in `.pictor-tmp`.
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  isOwnTempName,
  isTempNameOf,
  ownTempName,
  pidOf,
  processState,
  STALE_TEMP_MS,
  THIS_HOST,
} from '../core/fs';
import { withStoreLock } from './store-lock';

/** A name for this process's temporary file of `file`, of today's naming. */
export function storeTempPath(file: string): string {
  return `${file}.${ownTempName('.tmp')}`;
}

const EARLIER = /^([1-9][0-9]{0,9})-[0-9a-f]{12}\.tmp$/;
const OWNERLESS = /^tmp-[0-9]{10}[0-9a-f]{6}$/;

/** Whether `rest` (the name after `<file>.`), last changed at `changedMs`, is a leftover. */
function isLeftover(rest: string, changedMs: number, nowMs: number, ownerless: boolean): boolean {
  if (isTempNameOf(rest, '.tmp')) return !isOwnTempName(rest);
  const earlier = EARLIER.exec(rest);
  const named = earlier !== null || OWNERLESS.test(rest);
  if (!named) return false;
  if (nowMs - changedMs > STALE_TEMP_MS) return true;
  // Earlier names carry no machine: the pid is asked about on this one (a local data folder).
  if (earlier) return processState(THIS_HOST, pidOf(earlier[1])) === 'gone';
  return ownerless;
}

/** The paths of `file`'s leftover temporary files now (see the file's comment). */
function leftoversOf(file: string, nowMs: number, ownerless: boolean): string[] {
  const prefix = `${basename(file)}.`;
  const folder = dirname(file);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix))
    .filter((name) => {
      const info = lstatSync(join(folder, name), { throwIfNoEntry: false });
      // A folder or a link of that name is not a writer's; one gone meanwhile is no leftover.
      if (info?.isFile() !== true) return false;
      return isLeftover(name.slice(prefix.length), info.mtimeMs, nowMs, ownerless);
    })
    .map((name) => join(folder, name));
}

/** How long a start waits for another process's write to end before it leaves the sweep. */
const SWEEP_WAIT_MS = 250;

/**
 * Removes the leftover temporary files of `file`, holding the store's lock (so that no writer of
 * today is between its write and its rename), which is taken only when there seem to be some.
 * Returns how many went. Never throws: a leftover is harmless, and what could not be removed
 * (the lock held by another process longer than a start should wait) is tried at the next start.
 */
export function removeStoreTemps(file: string, nowMs: number, ownerless: boolean): number {
  try {
    if (leftoversOf(file, nowMs, ownerless).length === 0) return 0;
    return withStoreLock(
      file,
      () => {
        let removed = 0;
        for (const path of leftoversOf(file, nowMs, ownerless)) {
          rmSync(path, { force: true });
          removed += 1;
        }
        return removed;
      },
      SWEEP_WAIT_MS,
    );
  } catch {
    return 0;
  }
}
