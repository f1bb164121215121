/**
 * Before Settings › Local servers allows an address, the user agrees in the main process's own
 * dialog. An allowed address lets requests go to a loopback server another user of this computer
 * runs (core/service/local-server-gate.ts): with a squatter on the key's address, a compromised
 * page that could add the entry itself would unlock sending the key there. Removing an entry asks
 * nothing (it only refuses more). The question passes the key question's gate rules
 * (key-question-gate.ts: one at a time, a quiet spell after each "keep"), so a page looping the
 * change gets no loop of dialogs. The CLI changes settings.json itself: the user at the terminal.
 */
import type { Settings } from '../../shared/domain/settings';
import { sentence } from '../../shared/i18n/sentence';
import type { UserPrompts } from '../ports/user-prompts';
import { SettingsError } from '../core/settings';
import { KeyQuestionGate } from './key-question-gate';

/** The setting the question is about. */
export const LOCAL_SERVERS = 'allowedLocalServers';

/** The addresses `next` allows that `current` does not. */
export function addedLocalServers(current: Settings, next: Settings): readonly string[] {
  return next.allowedLocalServers.filter((entry) => !current.allowedLocalServers.includes(entry));
}

/** One question at a time, and a quiet spell after the user kept the list as it was. */
export function localServerQuestionGate(
  now: () => number,
  presses: () => number | null,
): KeyQuestionGate {
  const refusals = {
    field: LOCAL_SERVERS,
    open: 'error.settings.localServerQuestionOpen',
    resting: 'error.settings.localServerQuestionResting',
  } as const;
  return new KeyQuestionGate(now, refusals, presses);
}

/**
 * Asks before `added` join the allow list; resolves when the user agreed (or nothing is added).
 * @throws SettingsError when the user kept the list as it was, nobody could be asked, or the gate
 *   refused to ask (a question on screen, a quiet spell).
 */
export async function askLocalServers(
  added: readonly string[],
  prompts: UserPrompts | undefined,
  gate: KeyQuestionGate,
): Promise<void> {
  if (added.length === 0) return;
  const confirm = prompts?.confirmLocalServers?.bind(prompts);
  const agreed = confirm
    ? await gate.ask(
        () => confirm(added),
        (answer) => !answer,
      )
    : false;
  if (!agreed) {
    throw new SettingsError(
      sentence('error.settings.localServerNotAllowed', { address: added.join(', ') }),
      [LOCAL_SERVERS],
    );
  }
}
