/**
 * The settings file's layout (its two keys) and its repairs: a damaged file moved aside, a file
 * with bad values copied aside and written over with only those values replaced. The owner of
 * the file (the app, at its start: settings-service.ts) repairs it, holding its lock, for which
 * a start that found it held waits on ({@link whenLocked}).
 */
import { DEFAULT_SETTINGS, UNREAD_SETTINGS, type Settings } from '../../../shared/domain/settings';
import type { KeyValueStore } from '../../ports/key-value-store';
import { StoreBusyError, damagedFileSuffix } from '../../ports/key-value-store';
import type { Logger } from '../../ports/logger';
import { messageOf } from '../errors';
import type { SettingName } from './settings-fields';
import { SETTING_LABELS } from './settings-fields';
import { settingsWrittenOver } from './settings-merge';
import { fieldsResetProblem, type SettingsProblem } from './settings-problems';
import type { WindowBounds } from './window-bounds';

/** The user's settings in the file. */
export const SETTINGS_KEY = 'settings';
/** The main window's last bounds, beside them. */
export const WINDOW_BOUNDS_KEY = 'windowBounds';

/** What a repair works with: the file's store, the clock that names a copy, the log. */
export interface RepairPorts {
  readonly store: KeyValueStore;
  readonly now: () => number;
  readonly logger: Logger;
}

/**
 * The stand-ins that differ from the defaults (the update mode, never uploading inputs): what a
 * file written in place of a damaged one holds, the rest reading as their defaults.
 */
const CAUTIOUS = Object.fromEntries(
  Object.entries(UNREAD_SETTINGS).filter(
    ([name, value]) => value !== DEFAULT_SETTINGS[name as keyof Settings],
  ),
);

/**
 * Moves the file aside; the path of the copy, or null when it could not be moved. A file of the
 * cautious stand-ins takes its place: with none, the next start would be a first start, on the
 * defaults (an update downloaded, inputs uploaded) the user may have refused in the damaged file,
 * where this start, and its Settings screen, read the stand-ins.
 */
export function keepAside({ store, now, logger }: RepairPorts): string | null {
  let copy: string | null;
  try {
    copy = store.moveAside(damagedFileSuffix(now()));
  } catch (error) {
    logger.error('settings file could not be moved aside', { error: messageOf(error) });
    return null;
  }
  if (copy === null) return null;
  try {
    store.set(SETTINGS_KEY, CAUTIOUS);
  } catch (error) {
    logger.warn('cautious settings not saved', { error: messageOf(error) });
  }
  return copy;
}

/** Copies the file beside it; the path of the copy, or null when none was made. */
function copyAside({ store, now, logger }: RepairPorts): string | null {
  try {
    return store.copyAside(damagedFileSuffix(now()));
  } catch (error) {
    logger.error('settings file could not be copied aside', { error: messageOf(error) });
    return null;
  }
}

/**
 * Some values were bad: keep a copy of the old file, write the repaired one over it: only the
 * bad values replaced, every other value `stored` holds kept as written (a newer Pictor's among
 * them), and the bounds. The old file stays where it is until the repaired one replaces it: a
 * write that fails (a full disk) leaves it for the next start, which repairs it again, instead
 * of no file, which would read as the defaults with nothing said.
 * @returns the problem to tell the user.
 */
export function writeRepaired(
  ports: RepairPorts,
  names: readonly SettingName[],
  stored: Record<string, unknown> | null,
  repaired: { readonly settings: Settings; readonly bounds: WindowBounds | null },
): SettingsProblem {
  const { store, logger } = ports;
  const labels = names.map((name) => SETTING_LABELS[name]);
  logger.warn('settings reset to defaults', { fields: labels.join(', ') });
  const copy = copyAside(ports);
  const written =
    stored === null ? repaired.settings : settingsWrittenOver(stored, repaired.settings, names);
  try {
    store.set(SETTINGS_KEY, written);
    // Bounds that were not valid are dropped, as the values that were not (the old file kept
    // them in the copy).
    if (repaired.bounds) store.set(WINDOW_BOUNDS_KEY, repaired.bounds);
    else store.delete(WINDOW_BOUNDS_KEY);
  } catch (error) {
    logger.warn('repaired settings not saved', { error: messageOf(error) });
  }
  return fieldsResetProblem(names, copy);
}

/** Between two waits for a lock another process still holds (real time). */
const LOCKED_RETRY_MS = 5_000;

/**
 * Runs `work` holding the store's lock once it may be had: `first` is the wait already begun,
 * and after each give-up (the lock still held) another begins a while later, for as long as it
 * takes (a command stopped with Ctrl+Z holds it until resumed). A lock that cannot be used
 * (not busy: a lock file that is no file) runs `unusable` instead. Never rejects.
 */
export async function whenLocked(
  store: KeyValueStore,
  first: Promise<void>,
  run: { readonly work: () => void; readonly unusable: () => void },
  logger: Logger,
): Promise<void> {
  for (let wait = first; ; wait = store.exclusivelySoon(run.work)) {
    try {
      return await wait;
    } catch (error) {
      if (!(error instanceof StoreBusyError)) return run.unusable();
      logger.warn('settings still locked by another process', { error: messageOf(error) });
      await new Promise<void>((resolve) => setTimeout(resolve, LOCKED_RETRY_MS).unref());
    }
  }
}
