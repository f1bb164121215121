/**
 * Questions only the user can answer, asked in a dialog the main process draws itself (never
 * the page's), so a compromised renderer cannot answer them. Electron's `dialog` in the app, a
 * scripted stand-in in tests.
 */

/**
 * The service address is about to change to another base URL (another origin, or another path
 * on the same origin: another tenant of a shared gateway) while a key is stored.
 */
export interface KeyOriginQuestion {
  /** The stored key's short fingerprint (the key itself is never shown). */
  readonly fingerprint: string | null;
  /** The base URL the key was entered for; null when it was stored before any address was set. */
  readonly from: string | null;
  /** The base URL of the new address (normalised, see checkBaseUrl). */
  readonly to: string;
}

/**
 * `carry`: send the stored key to the new base URL from now on. `forget`: change the address and
 * remove the key (the user will enter the new service's key). `cancel`: change nothing.
 */
export type KeyOriginAnswer = 'carry' | 'forget' | 'cancel';

export interface UserPrompts {
  confirmKeyOrigin(question: KeyOriginQuestion): Promise<KeyOriginAnswer>;
}

/** Used where nobody can be asked: the key never moves to another base URL. */
export const refusingPrompts: UserPrompts = {
  confirmKeyOrigin: () => Promise.resolve('cancel'),
};
