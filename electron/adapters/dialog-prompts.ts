/**
 * The user's answers to questions only they may answer, in Electron's native message box: drawn
 * by the main process, so script in the page can neither see nor click it.
 */
import type { BaseWindow, Dialog, MessageBoxOptions } from 'electron';
import { serviceAddress, serviceLabel } from '../core/service';
import { mainText } from '../app/i18n/main-text';
import { formatMicros } from '../../shared/domain/task-cost';
import type { CostPrice } from '../../shared/domain/cost-ledger';
import { PROVIDERS } from '../../shared/domain/providers';
import type {
  CapLoosening,
  CapPrompts,
  CommandLineToolPrompts,
  KeyOriginAnswer,
  KeyOriginQuestion,
  OverCapPrompts,
  OverCapQuestion,
  UserPrompts,
} from '../ports/user-prompts';

/** The buttons, in the order they are shown; Cancel is the default and what Escape picks. */
const ANSWERS: readonly KeyOriginAnswer[] = ['cancel', 'carry', 'forget'];

/**
 * The message box for a key that would go to another service base URL, in the main process's
 * language (app/i18n); the base URLs (host and path, so two tenants of one gateway read apart)
 * and the fingerprint are placeholders, the base URLs as core/service's serviceLabel shows
 * them (ASCII, bounded, a long host by its right end: the part that says whose it is).
 */
export function keyOriginMessage(question: KeyOriginQuestion): MessageBoxOptions {
  const to = serviceLabel(question.to);
  const from = question.from === null ? null : serviceLabel(question.from);
  const { fingerprint } = question;
  return {
    type: 'warning',
    title: mainText('keyOrigin.title'),
    message: fingerprint
      ? mainText('keyOrigin.messageWithFingerprint', { fingerprint, to })
      : mainText('keyOrigin.message', { to }),
    detail: `${
      from === null ? mainText('keyOrigin.savedBefore') : mainText('keyOrigin.enteredFor', { from })
    } ${mainText('keyOrigin.detail', { origin: serviceAddress(question.to), to })}`,
    buttons: [
      mainText('keyOrigin.cancel'),
      mainText('keyOrigin.carry', { to }),
      mainText('keyOrigin.forget'),
    ],
    defaultId: ANSWERS.indexOf('cancel'),
    cancelId: ANSWERS.indexOf('cancel'),
    noLink: true,
  };
}

/**
 * The message box before Settings › Local servers allows `addresses` (normalised loopback
 * `host:port` spellings, local-server-gate.ts): Don't Allow is the default and what Escape picks.
 */
export function localServersMessage(addresses: readonly string[]): MessageBoxOptions {
  return {
    type: 'warning',
    message: mainText('localServer.message', { address: addresses.join(', ') }),
    detail: mainText('localServer.detail'),
    buttons: [mainText('localServer.keep'), mainText('localServer.allow')],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/** Shows `options` in a message box over the window when there is one; the button picked. */
async function ask(
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BaseWindow | null,
  options: MessageBoxOptions,
): Promise<number> {
  const parent = window();
  const { response } = parent
    ? await dialog.showMessageBox(parent, options)
    : await dialog.showMessageBox(options);
  return response;
}

export function createDialogPrompts(
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BaseWindow | null,
): UserPrompts {
  return {
    async confirmKeyOrigin(question) {
      const response = await ask(dialog, window, keyOriginMessage(question));
      return ANSWERS[response] ?? 'cancel';
    },
    async confirmLocalServers(addresses) {
      return (await ask(dialog, window, localServersMessage(addresses))) === 1;
    },
  };
}

/** "Install Command Line Tool…": the question before the link is made, and how it ended. */
export function createCommandLineToolPrompts(
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BaseWindow | null,
): CommandLineToolPrompts {
  return {
    async confirmInstall(link) {
      const response = await ask(dialog, window, {
        type: 'question',
        message: mainText('commandLineTool.confirm', { link }),
        detail: mainText('commandLineTool.confirmDetail'),
        buttons: [mainText('commandLineTool.install'), mainText('commandLineTool.cancel')],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
      });
      return response === 0;
    },
    async tell(sentence, tone) {
      await ask(dialog, window, {
        type: tone,
        message: mainText(sentence.key, { ...sentence.params }),
        noLink: true,
      });
    },
  };
}

/** A price as the question names it: `0.04 USD per image`, or "no price". */
function priceText(price: CostPrice | null): string {
  if (price === null) return mainText('capChange.priceNone');
  const { micros, unit, basis } = price;
  return mainText('capChange.priceEach', { amount: formatMicros(micros), unit, basis });
}

/**
 * The message box that asks before a hard spending cap counts less: raised, removed, or one of
 * the prices it counts by lowered. Keep is the default and what Escape picks.
 */
export function capLooseningMessage(change: CapLoosening): MessageBoxOptions {
  const { cap, to, price } = change;
  const from = formatMicros(cap.micros);
  const question = price
    ? mainText('capChange.price', {
        service: PROVIDERS[price.provider].label,
        model: price.model === '' ? 'all' : price.model,
        unit: cap.unit,
        from: priceText(price.from),
        to: priceText(price.to),
        cap: from,
      })
    : to === null
      ? mainText('capChange.remove', { from, unit: cap.unit })
      : mainText('capChange.raise', { from, to: formatMicros(to), unit: cap.unit });
  const confirm = price
    ? 'capChange.confirmPrice'
    : to === null
      ? 'capChange.confirmRemove'
      : 'capChange.confirmRaise';
  return {
    type: 'warning',
    message: question,
    detail: mainText('capChange.detail'),
    buttons: [mainText(price ? 'capChange.keepPrice' : 'capChange.keep'), mainText(confirm)],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/**
 * The message box before tasks are sent past a hard spending cap, this once: the cap's own
 * refusal as main words it, how many tasks, and that the cap stays. Don't Send is the default and
 * what Escape picks.
 */
export function overCapMessage(question: OverCapQuestion): MessageBoxOptions {
  const { refusal, tasks } = question;
  return {
    type: 'warning',
    message: mainText(refusal.key, { ...refusal.params }),
    detail: mainText('overCap.detail', { tasks }),
    buttons: [mainText('overCap.keep'), mainText('overCap.send')],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/**
 * The spending caps' questions: loosening a hard cap, and sending tasks past one this once. Each
 * is agreed to by its second button.
 */
export function createCapPrompts(
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BaseWindow | null,
): CapPrompts & OverCapPrompts {
  const agreed = async (options: MessageBoxOptions) => (await ask(dialog, window, options)) === 1;
  return {
    confirmLooserCap: (change) => agreed(capLooseningMessage(change)),
    confirmOverHardCap: (question) => agreed(overCapMessage(question)),
  };
}
