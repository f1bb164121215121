/**
 * One key per service (provider), each in a vault file of its own (the app:
 * `key-vault-<provider>.json`, record `apiKey`), each bound to its service's address, so a damaged
 * file costs one service its key, never another's. The key earlier versions kept apart for the
 * user's own service (`key-vault.json`) moves, still encrypted, into that service's file.
 */
import {
  DEFAULT_PROVIDER,
  PROVIDER_IDS,
  perProvider,
  type ProviderId,
} from '../../../shared/domain/providers';
import type { KeyStatus, KeyStatuses } from '../../../shared/domain/key-status';
import { DisposableStore, type Disposable } from '../../ports/disposable';
import type { KeyValueStore } from '../../ports/key-value-store';
import type { Logger } from '../../ports/logger';
import type { SecretCipher } from '../../ports/secret-cipher';
import { moveEarlierKey } from './earlier-key-file';
import { KeyVault, type KeyVaultOptions } from './key-vault';

export interface ServiceKeysOptions {
  /** The vault file of each service (the app: `key-vault-<provider>.json`). */
  readonly storeFor: (provider: ProviderId) => KeyValueStore;
  /**
   * The file earlier versions kept the user's own service's key in (`key-vault.json`): its key
   * moves to the default provider's file (records from before services had profiles are its).
   */
  readonly earlierStore?: KeyValueStore;
  readonly cipher: SecretCipher;
  readonly now: () => number;
  readonly logger?: Logger;
  /** The timers each vault tells a slow decrypt by (KeyVaultOptions.timers). */
  readonly timers?: KeyVaultOptions['timers'];
}

export class ServiceKeys {
  private readonly vaults: Readonly<Record<ProviderId, KeyVault>>;
  private readonly cipher: SecretCipher;

  constructor(options: ServiceKeysOptions) {
    this.cipher = options.cipher;
    const { cipher, now, logger, timers } = options;
    const vaultOn = (store: KeyValueStore) =>
      new KeyVault({
        store,
        cipher,
        now,
        ...(logger ? { logger } : {}),
        ...(timers ? { timers } : {}),
      });
    const stores = perProvider(PROVIDER_IDS, (provider) => options.storeFor(provider));
    // The vault files are the app's alone (a command reads no key file): at its start, what a
    // killed write left beside one goes (a key the user has removed since may be in it).
    for (const store of [...Object.values(stores), options.earlierStore]) {
      store?.removeLeftovers(now(), true);
    }
    if (options.earlierStore) {
      moveEarlierKey(options.earlierStore, stores[DEFAULT_PROVIDER], now, logger);
    }
    this.vaults = perProvider(PROVIDER_IDS, (provider) => vaultOn(stores[provider]));
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

  /**
   * Every key that can be read now: the one home of "the keys this process holds", read by the
   * log's redactor (app-runtime.ts) and by the service client for each call, which searches
   * every answer for each of them (AppCredentials.heldKeys). Decrypted for the caller, never
   * kept here. `waitForStorage` false: none while the OS's storage has not answered yet (the app's
   * start does not wait for a keychain prompt, and a request to a service that needs no stored
   * key, the demo's, must not either: no key is decrypted in this process before it answers).
   */
  async readableKeys(waitForStorage = true): Promise<string[]> {
    return (await this.readableKeysMarked(waitForStorage)).keys;
  }

  /**
   * {@link readableKeys}, with a mark of each key read that names it without deriving anything
   * from it: its service and when it was stored (`pictor@1767225600000`; a new key is a new
   * record, stored at its own time). A key whose record changed while it was read has none. The
   * app's sweep of kept ids keeps the marks of the keys it swept (kept-key-sweep.ts).
   */
  async readableKeysMarked(
    waitForStorage = true,
  ): Promise<{ readonly keys: string[]; readonly marks: string[] }> {
    const keys: string[] = [];
    const marks: string[] = [];
    if (!waitForStorage && !this.cipher.isReady()) return { keys, marks };
    for (const provider of PROVIDER_IDS) {
      const vault = this.vaults[provider];
      const before = vault.storedAt();
      const key = await vault.readKey();
      if (key === null) continue;
      keys.push(key);
      const after = vault.storedAt();
      if (before !== undefined && before === after) marks.push(`${provider}@${after}`);
    }
    return { keys, marks };
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
