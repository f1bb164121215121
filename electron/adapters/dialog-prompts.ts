/**
 * The user's answers to questions only they may answer, in Electron's native message box: drawn
 * by the main process, so script in the page can neither see nor click it.
 */
import type { BaseWindow, Dialog, MessageBoxOptions } from 'electron';
import { originLabel } from '../core/credentials/key-origin';
import type { KeyOriginAnswer, KeyOriginQuestion, UserPrompts } from '../ports/user-prompts';

/** The buttons, in the order they are shown; Cancel is the default and what Escape picks. */
const ANSWERS: readonly KeyOriginAnswer[] = ['cancel', 'carry', 'forget'];

/** The message box for a key that would go to another service origin. */
export function keyOriginMessage(question: KeyOriginQuestion): MessageBoxOptions {
  const to = originLabel(question.to);
  const from = question.from === null ? null : originLabel(question.from);
  const fingerprint = question.fingerprint ? ` (${question.fingerprint})` : '';
  return {
    type: 'warning',
    title: 'Send your API key to another service?',
    message: `Send your API key${fingerprint} to ${to}?`,
    detail:
      (from === null
        ? 'Your key was saved before a service address was set.'
        : `Your key was entered for ${from}.`) +
      ` From now on Pictor would send it to ${question.to}. Only do this if that service issued the key. Otherwise remove the key here and paste the key from ${to}.`,
    buttons: ['Cancel', `Send the key to ${to}`, 'Remove the key and change the address'],
    defaultId: ANSWERS.indexOf('cancel'),
    cancelId: ANSWERS.indexOf('cancel'),
    noLink: true,
  };
}

export function createDialogPrompts(
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BaseWindow | null,
): UserPrompts {
  return {
    async confirmKeyOrigin(question) {
      const options = keyOriginMessage(question);
      const parent = window();
      const { response } = parent
        ? await dialog.showMessageBox(parent, options)
        : await dialog.showMessageBox(options);
      return ANSWERS[response] ?? 'cancel';
    },
  };
}
