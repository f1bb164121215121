/**
 * Save in Settings, the same for every service: the key is checked with the service it will be
 * bound to (its profile's key probe, which creates no task) before it is stored. A key the
 * service accepted is stored with that check; one it refused is not stored, and the reason comes
 * back; when the service could not be asked (not reached, not this kind of service, busy, no
 * address yet) nothing is stored and the user decides whether to save it without checking, which
 * stores it marked "not checked yet". Weak storage is asked about before the service is, so a
 * key is checked once.
 */
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import type { KeyStatus } from '../../../shared/domain/key-status';
import type { ProviderId } from '../../../shared/domain/providers';
import { sentence } from '../../../shared/i18n/sentence';
import type { ServiceCredentials } from '../../ports/credentials';
import { reportSaying, type ConnectionReport } from '../service';
import type { KeyVault } from './key-vault';
import { checkKeyText } from '../secrets';

/** What Save did with a key. */
export type KeySave =
  /** Stored: checked by its service (`status.check`), or not, as the user chose. */
  | { readonly outcome: 'saved'; readonly status: KeyStatus }
  /** Nothing stored: the storage needs the user's consent first, or is not ready (the status says). */
  | { readonly outcome: 'storage'; readonly status: KeyStatus }
  /** Nothing stored: the service refused the key (the report says which and why). */
  | { readonly outcome: 'refused'; readonly report: ConnectionReport }
  /** Nothing stored: the service could not be asked; the user may save it without checking. */
  | { readonly outcome: 'unchecked'; readonly report: ConnectionReport };

export interface SaveKeyDeps {
  readonly vault: Pick<KeyVault, 'setKey' | 'storageRefusal'>;
  /** The address the key is bound to when stored (its service's, as Settings has it now). */
  readonly baseUrl: string | null;
  readonly provider: ProviderId;
  /** Asks the service at `credentials`' address whether it takes their key (a key probe). */
  readonly probe: (credentials: ServiceCredentials) => Promise<ConnectionReport>;
  readonly now: () => number;
}

export interface SaveKeyOptions {
  readonly allowWeakStorage: boolean;
  /** The user answered "Save without checking?": store it unchecked. */
  readonly skipCheck: boolean;
}

/**
 * Checks `raw` with its service and stores it (see the file comment).
 * @throws KeyVaultError `invalid_key` for text that cannot be a key (nothing is sent anywhere),
 *   `not_saved` when the vault cannot be written.
 */
export async function saveCheckedKey(
  deps: SaveKeyDeps,
  raw: string,
  options: SaveKeyOptions,
): Promise<KeySave> {
  const key = checkKeyText(raw);
  const refusal = deps.vault.storageRefusal(options.allowWeakStorage);
  if (refusal !== null) return { outcome: 'storage', status: refusal };
  const { baseUrl, provider } = deps;
  const store = async (checked: boolean): Promise<KeySave> => {
    const check = checked ? { check: { outcome: 'accepted', at: deps.now() } as const } : {};
    const { allowWeakStorage } = options;
    const status = await deps.vault.setKey(key, { allowWeakStorage, baseUrl, ...check });
    // The storage may have changed its answer meanwhile (the OS keyring locked): nothing stored.
    return { outcome: status.state === 'ready' ? 'saved' : 'storage', status };
  };
  if (options.skipCheck) return store(false);
  if (baseUrl === null) {
    // No address yet (today's contract): nowhere to ask, so the user decides.
    const report = reportSaying('not_tested', sentence('error.service.testKeyNeedsAddress'));
    return { outcome: 'unchecked', report };
  }
  const credentials = { baseUrl, key, keyFingerprint: await keyFingerprint(key), provider };
  const report = await deps.probe(credentials);
  if (report.outcome === 'accepted') return store(true);
  if (report.outcome === 'key_refused') return { outcome: 'refused', report };
  return { outcome: 'unchecked', report };
}
