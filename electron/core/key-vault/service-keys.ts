/**
 * One key per service (provider), each in a vault of its own, each bound to its service's
 * address. Today's contract keeps the vault file keys were always kept in (`key-vault.json`,
 * record `apiKey`): the key an earlier version stored is that service's key, with the address it
 * was bound to, and nothing is rewritten. Every other service has its own file, so a damaged file
 * costs one service its key, never another's.
 */
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import type { KeyStatus, KeyStatuses } from '../../../shared/domain/key-status';
import { DisposableStore, type Disposable } from '../../ports/disposable';
import type { KeyValueStore } from '../../ports/key-value-store';
import type { Logger } from '../../ports/logger';
import type { SecretCipher } from '../../ports/secret-cipher';
import { KeyVault } from './key-vault';

export interface ServiceKeysOptions {
  /** Today's vault file, which keeps the `pictor` service's key. */
  readonly store: KeyValueStore;
  /** The vault file of each other service (the app: `key-vault-<provider>.json`). */
  readonly storeFor: (provider: Exclude<ProviderId, 'pictor'>) => KeyValueStore;
  readonly cipher: SecretCipher;
  readonly now: () => number;
  readonly logger?: Logger;
}

export class ServiceKeys {
  private readonly vaults: Readonly<Record<ProviderId, KeyVault>>;

  constructor(options: ServiceKeysOptions) {
    const { cipher, now } = options;
    const logger = options.logger;
    const vaultOn = (store: KeyValueStore) =>
      new KeyVault({ store, cipher, now, ...(logger ? { logger } : {}) });
    this.vaults = Object.fromEntries(
      PROVIDER_IDS.map((provider) => [
        provider,
        vaultOn(provider === 'pictor' ? options.store : options.storeFor(provider)),
      ]),
    ) as Record<ProviderId, KeyVault>;
  }

  /** The vault of `provider`'s key. */
  vault(provider: ProviderId): KeyVault {
    return this.vaults[provider];
  }

  statuses(): KeyStatuses {
    return Object.fromEntries(
      PROVIDER_IDS.map((provider) => [provider, this.vaults[provider].status()]),
    ) as KeyStatuses;
  }

  /** Tries every stored key once (at start): a key that no longer decrypts says so now. */
  async verify(): Promise<void> {
    for (const provider of PROVIDER_IDS) await this.vaults[provider].verify();
  }

  /** Every key that can be read now, for the log's redaction (never kept). */
  async readableKeys(): Promise<string[]> {
    const keys: string[] = [];
    for (const provider of PROVIDER_IDS) {
      const key = await this.vaults[provider].readKey();
      if (key !== null) keys.push(key);
    }
    return keys;
  }

  /** Calls `listener` with a service and its new status whenever one changes. */
  onChange(listener: (provider: ProviderId, status: KeyStatus) => void): Disposable {
    const subscriptions = new DisposableStore();
    for (const provider of PROVIDER_IDS) {
      subscriptions.add(this.vaults[provider].onDidChange((status) => listener(provider, status)));
    }
    return subscriptions;
  }
}
