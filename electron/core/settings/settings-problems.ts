/**
 * The sentences of what was wrong with settings.json when it was read (settings-service.ts), for
 * a dialog at start and the log; and which failed reads are no damage.
 */
import { DEFAULT_SETTINGS, UNREAD_SETTINGS } from '../../../shared/domain/settings';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { systemErrorCode } from '../errors';
import type { SettingName } from './settings-fields';

/**
 * A problem found when the file was read, for a dialog at start: whole sentences of the
 * catalogue, shown one after another, and their English text for the log.
 */
export interface SettingsProblem {
  readonly message: string;
  readonly sentences: readonly Sentence[];
}

function problem(sentences: readonly Sentence[]): SettingsProblem {
  return { message: sentences.map(englishText).join(' '), sentences };
}

export const damagedProblem = (copy: string | null, path: string): SettingsProblem =>
  problem([
    copy === null
      ? sentence('error.settings.fileDamaged', { path })
      : sentence('error.settings.fileDamagedCopy', { copy }),
  ]);

export const unreadableProblem = (path: string): SettingsProblem =>
  problem([sentence('error.settings.fileUnreadable', { path })]);

/**
 * Whether a read of the file failed in the system rather than in its text: the file is there but
 * this user may not read it (one written under sudo), or the disk failed. That is no damage, and
 * the file is the user's settings: it is left where it is. A folder, a link (never followed:
 * ELOOP, core/fs readKeptFileSync), a FIFO or a file in the folder's place (EISDIR, ENOTDIR) is
 * no settings file at all, and is damage: set aside as itself.
 */
export function unreadable(error: unknown): boolean {
  const code = systemErrorCode(error);
  return (
    code !== undefined &&
    /^E[A-Z0-9]+$/.test(code) &&
    !['EISDIR', 'ELOOP', 'ENOTDIR'].includes(code)
  );
}

/**
 * Whether a refused value's stand-in is the cautious side of its default (UNREAD_SETTINGS): the
 * sentence then names what stands in, not "its default".
 */
const cautious = (name: SettingName): boolean => UNREAD_SETTINGS[name] !== DEFAULT_SETTINGS[name];

/** One sentence per reset setting, then where the old file was kept. */
export const fieldsResetProblem = (names: readonly SettingName[], copy: string | null) =>
  problem([
    ...names.map((setting) =>
      sentence(
        cautious(setting) ? 'error.settings.settingCautious' : 'error.settings.settingReset',
        {
          setting,
        },
      ),
    ),
    ...(copy === null ? [] : [sentence('error.settings.oldFileKept', { copy })]),
  ]);
