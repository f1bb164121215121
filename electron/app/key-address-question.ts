/**
 * Before a service's address changes: when a key is stored for that service and the new address
 * is not the one it was entered for, the user decides in the main process's own dialog whether
 * the key goes there, is removed, or the address stays.
 */
import { sentence } from '../../shared/i18n/sentence';
import type { Logger } from '../ports/logger';
import { refusingPrompts, type UserPrompts } from '../ports/user-prompts';
import { serviceLabel } from '../core/service';
import type { KeyVault } from '../core/key-vault';
import { SettingsError } from '../core/settings';

/** What the question needs of one service's vault. */
export type QuestionVault = Pick<KeyVault, 'hasKey' | 'boundBaseUrl' | 'status' | 'clear'>;

export interface KeyAddressQuestion {
  readonly vault: QuestionVault;
  /** The service's new address, normalised; null when it has none (the key goes nowhere). */
  readonly to: string | null;
  /** The setting the refusal names (`serviceBaseUrls`). */
  readonly field: string;
  readonly prompts: UserPrompts | undefined;
  readonly logger: Logger;
}

/**
 * Asks about the key of one service before its address becomes `to`. Returns the base URL to
 * bind the key to once the address is saved, or null when nothing needs binding (the key was
 * removed when the user chose so).
 * @throws SettingsError when the user kept the address as it was.
 */
export async function askKeyAddress(
  question: KeyAddressQuestion,
): Promise<{ baseUrl: string } | null> {
  const { vault, to, logger } = question;
  const from = vault.boundBaseUrl();
  // No key, an address that is not valid (refused by the settings next), no address (the
  // demo: the key goes nowhere), or the key's own base URL: nothing to ask.
  if (!vault.hasKey() || to === null || to === from) return null;
  const prompts = question.prompts ?? refusingPrompts;
  const answer = await prompts.confirmKeyOrigin({
    fingerprint: vault.status().fingerprint,
    from: from ?? null,
    to,
  });
  logger.info('key service question answered', { from: from ?? null, to, answer });
  if (answer === 'carry') return { baseUrl: to };
  if (answer === 'forget') {
    vault.clear();
    return null;
  }
  throw new SettingsError(
    // A key saved before any address was set (or before keys were bound) stays with no one.
    typeof from === 'string'
      ? sentence('error.settings.keyStaysWith', { from: serviceLabel(from), to: serviceLabel(to) })
      : sentence('error.settings.keyNotSent', { to: serviceLabel(to) }),
    [question.field],
  );
}
