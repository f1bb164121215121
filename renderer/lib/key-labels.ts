/** How a key's storage is named for the user (Settings' key section and the window's keyring-wait notice). */
import type { KeyStatus } from '../../shared/domain/key-status';
import { errorText, t, type MessageKey } from '../i18n';

const BACKENDS: Readonly<Record<string, MessageKey>> = {
  keychain: 'settings.key.backend.keychain',
  dpapi: 'settings.key.backend.dpapi',
  gnome_libsecret: 'settings.key.backend.libsecret',
  kwallet: 'settings.key.backend.kwallet',
  kwallet5: 'settings.key.backend.kwallet',
  kwallet6: 'settings.key.backend.kwallet',
  basic_text: 'settings.key.backend.basicText',
  plaintext: 'settings.key.backend.plaintext',
};

export function backendName(backend: string): string {
  const key = BACKENDS[backend];
  return key ? t(key) : t('settings.key.backend.other', { backend });
}

/** States in which storing a key was refused until the user agrees to weak storage. */
export function needsConsent(status: KeyStatus): boolean {
  return status.state === 'needs_consent' || status.state === 'unavailable';
}

/** The status's sentence for the user in the window's language, or null when it has none. */
export function keyStatusText(status: KeyStatus): string | null {
  return status.message === null
    ? null
    : errorText({ message: status.message, sentence: status.messageSentence });
}
