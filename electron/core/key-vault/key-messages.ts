/**
 * The sentences the user reads about their key: what happened and what to do, as catalogue
 * sentences (shared/i18n/errors/settings.ts) so the window shows them in its language. None of
 * them includes the key; only backend names and file paths.
 */
import { sentence, type Sentence } from '../../../shared/i18n/sentence';

export const keyMessages = {
  notReady: sentence('error.settings.keyNotReady'),
  notSet: sentence('error.settings.keyNotSet'),
  needsConsent: (backend: string): Sentence =>
    sentence('error.settings.keyNeedsConsent', { backend }),
  unavailableEmpty: sentence('error.settings.keyUnavailableEmpty'),
  unavailableStored: sentence('error.settings.keyUnavailableStored'),
  backendChanged: (stored: string, current: string): Sentence =>
    sentence('error.settings.keyBackendChanged', { stored, current }),
  decryptFailed: sentence('error.settings.keyDecryptFailed'),
  damaged: (copy: string | null): Sentence =>
    copy === null
      ? sentence('error.settings.keyDamaged')
      : sentence('error.settings.keyDamagedCopy', { copy }),
  weakReady: (backend: string): Sentence => sentence('error.settings.keyWeakReady', { backend }),
  notSaved: (path: string): Sentence => sentence('error.settings.keyNotSaved', { path }),
  notRemoved: (path: string): Sentence => sentence('error.settings.keyNotRemoved', { path }),
  encryptFailed: sentence('error.settings.keyEncryptFailed'),
} as const;
