/**
 * The sentences the user reads about their key: what happened and what to do. None of them
 * includes the key; only backend names and file paths.
 */

const BACKEND_LABELS: Readonly<Record<string, string>> = {
  keychain: 'the macOS Keychain',
  dpapi: 'Windows data protection (DPAPI)',
  gnome_libsecret: 'the GNOME keyring (libsecret)',
  kwallet: 'KWallet',
  kwallet5: 'KWallet 5',
  kwallet6: 'KWallet 6',
  basic_text: 'Chromium’s basic text store',
  plaintext: 'no encryption',
  unknown: 'an unrecognised secret store',
};

/** A backend name as a user would say it. */
export function backendLabel(backend: string): string {
  return BACKEND_LABELS[backend] ?? `the “${backend}” secret store`;
}

const ANYONE = 'anyone who can read your files could read the key';

export const keyMessages = {
  notReady: 'Pictor is still starting and cannot reach your key’s storage yet. Wait a moment.',
  notSet:
    'No API key is set, so Pictor uses its built-in demo service. Paste your key in Settings to use your own service.',
  needsConsent: (backend: string) =>
    `This computer protects saved secrets only with ${backendLabel(backend)}, which is effectively plain text. Store the key anyway if you accept that ${ANYONE}, or set up a keyring (such as GNOME Keyring or KWallet) and restart Pictor.`,
  unavailableEmpty: `This computer cannot encrypt your key right now (no keyring or keychain is available). Store it without encryption if you accept that ${ANYONE}, or keep using the demo service.`,
  unavailableStored:
    'Your saved key cannot be read because this computer’s encryption is not available right now. Unlock your keyring or keychain and restart Pictor; if that does not help, enter the key again.',
  backendChanged: (stored: string, current: string) =>
    `Your key was saved with ${backendLabel(stored)}, but Pictor now runs with ${backendLabel(current)}, which cannot read it. Enter the key again.`,
  decryptFailed:
    'Your saved key could not be decrypted (it may come from another computer or user account, or the keyring was reset). Enter the key again.',
  damaged: (copy: string | null) =>
    copy === null
      ? 'The file holding your key was damaged and could not be read. Enter the key again.'
      : `The file holding your key was damaged and could not be read; a copy was kept at ${copy}. Enter the key again.`,
  weakReady: (backend: string) =>
    `Your key is stored with ${backendLabel(backend)}, as you agreed: ${ANYONE}.`,
  notSaved: (path: string) =>
    `The key could not be saved in ${path}. Check that the folder is writable and try again.`,
  notRemoved: (path: string) =>
    `The key could not be removed from ${path}. Check that the folder is writable and try again.`,
  encryptFailed:
    'This computer’s encryption refused to protect the key. Try again, or restart Pictor.',
} as const;
