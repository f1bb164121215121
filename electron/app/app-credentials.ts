/**
 * The app's credentials: one key per service, each read from its vault at the moment a request
 * needs it and not kept, and only for the address it was entered for. A submit names its own
 * service and address (checked against these: core/engine/target-check.ts); the service the
 * settings remember is where a tracked id is looked for and what the demo banner follows: for
 * today's contract, the user's service once both a key and a base URL are set, the embedded demo
 * service until then.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import type { KeyStatus } from '../../shared/domain/key-status';
import {
  DEFAULT_PROVIDER,
  demoStandsIn,
  NO_KEY,
  worksWithoutKey,
  PROVIDER_IDS,
  type ProviderId,
} from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { sentence, type Sentence } from '../../shared/i18n/sentence';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { DisposableStore, type Disposable } from '../ports/disposable';
import {
  baseUrlOrRefusal,
  DEMO_ENDPOINT,
  DEMO_KEY,
  isDemoEndpoint,
  serviceBaseUrl,
  serviceLabel,
  type StoredKeyFor,
  UrlPolicyError,
} from '../core/service';
import { serviceAddress, servicesAt } from '../core/credentials';

/** What AppCredentials needs of the key vault. */
export interface KeySource {
  status(): KeyStatus;
  readKey(): Promise<string | null>;
  /** The base URL the stored key was entered for (see KeyVault.boundBaseUrl). */
  boundBaseUrl(): string | null | undefined;
  onDidChange(listener: (status: KeyStatus) => void): Disposable;
}

/** What AppCredentials needs of the settings (the service chosen, the addresses). */
export interface BaseUrlSource {
  get(): Pick<Settings, 'serviceBaseUrls'> & Partial<Pick<Settings, 'provider'>>;
  onDidChange(listener: (settings: Settings) => void): Disposable;
}

/** Every service's key (ServiceKeys). */
export interface ServiceKeySource {
  vault(provider: ProviderId): KeySource;
  /** Every key that can be read now (ServiceKeys.readableKeys); absent: none. */
  readableKeys?(waitForStorage?: boolean): Promise<string[]>;
}

export interface AppCredentialsOptions {
  /** Every service's key, each in its own vault. */
  readonly keys: ServiceKeySource;
  readonly settings: BaseUrlSource;
  /** The running demo service's base URL (random loopback port), or null when it is not running. */
  readonly demoUrl: () => string | null;
}

export class AppCredentials implements CredentialsProvider {
  constructor(private readonly options: AppCredentialsOptions) {}

  /**
   * The chosen service's address. For today's contract, the user's normalised base URL when a
   * key is ready and a base URL is set, else `demo:`; for another service, its address whether
   * or not its key is set (a submit without the key is refused, never sent to the demo).
   */
  currentEndpoint(): string {
    return this.endpointOf(this.options.settings.get().provider ?? DEFAULT_PROVIDER);
  }

  /**
   * Where a new task of `provider` goes now, as the compose form sends it (shared/domain/
   * submit-target.ts formTarget's rule, and the window names it so: the demo standing in): for a
   * service the demo stands in for, `demo:` until its key is there and an address is set; for
   * any other, its address. A compare's targets go here too.
   */
  endpointOf(provider: ProviderId): string {
    const vault = this.options.keys.vault(provider);
    const state = vault.status().state;
    // A stored key whose storage has not answered yet is the user's, not the demo's: requests
    // wait for it (KeyVault.readKey).
    const keyed =
      state === 'ready' || (state === 'not_ready' && vault.boundBaseUrl() !== undefined);
    if (demoStandsIn(provider) && !keyed) return DEMO_ENDPOINT;
    return this.addressOf(provider) ?? DEMO_ENDPOINT;
  }

  /** True while new tasks go to the demo service (the UI says so). */
  isDemo(): boolean {
    return this.currentEndpoint() === DEMO_ENDPOINT;
  }

  /**
   * Demo credentials for `demo:` (none for another dialect's demo, `demo:fal`: the window runs
   * none); else the key of the one service whose address `endpoint` is,
   * with its provider, when the key was entered for that address; null for any other endpoint (a
   * task made with an earlier address waits, visibly, until that address is set again), when
   * the addresses differ, and when two services have that address (whose key would it be?).
   */
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    if (endpoint === DEMO_ENDPOINT) {
      const baseUrl = this.options.demoUrl();
      return baseUrl === null
        ? null
        : { baseUrl, key: DEMO_KEY, keyFingerprint: await keyFingerprint(DEMO_KEY) };
    }
    // The window runs today's contract's demo only: a task of another dialect's (the command
    // line's `compare --target demo:fal`) gets no key here, the demo's or any other.
    if (isDemoEndpoint(endpoint)) return null;
    const baseUrl = serviceBaseUrl(endpoint);
    const provider = baseUrl === null ? null : this.ownerOf(baseUrl);
    if (baseUrl === null || provider === null) return null;
    const vault = this.options.keys.vault(provider);
    const key = baseUrl === vault.boundBaseUrl() ? await vault.readKey() : null;
    if (key === null) {
      // A local engine (ComfyUI) works with no key at its address: its requests carry none.
      if (!worksWithoutKey(provider)) return null;
      return { baseUrl, key: NO_KEY, keyFingerprint: await keyFingerprint(NO_KEY), provider };
    }
    return { baseUrl, key, keyFingerprint: await keyFingerprint(key), provider };
  }

  /**
   * Every service's key that can be read now (ServiceKeys.readableKeys, where the log's redactor
   * reads them too: app-runtime.ts), decrypted for the call that asks and not kept here. Never
   * waits for the OS's storage unless `untilKnown` (what leaves the app: core/secrets/
   * held-key-scrub.ts): a request to a service that needs no stored key (the demo's) goes on
   * while a keychain prompt is open.
   */
  async heldKeys(untilKnown = false): Promise<readonly string[]> {
    return (await this.options.keys.readableKeys?.(untilKnown)) ?? [];
  }

  /**
   * The stored key for `baseUrl`, a service address typed in Settings and perhaps not saved yet
   * (for "Test connection"): only when the key was entered for that base URL.
   */
  storedKeyFor(baseUrl: string): Promise<StoredKeyFor> {
    return this.storedKeyOf(DEFAULT_PROVIDER, serviceBaseUrl(baseUrl));
  }

  /**
   * `provider`'s stored key, only when it was entered for `baseUrl` (normalised; null: an
   * address that cannot be one): for "Test connection" of that service.
   */
  async storedKeyOf(provider: ProviderId, baseUrl: string | null): Promise<StoredKeyFor> {
    const vault = this.options.keys.vault(provider);
    const bound = vault.boundBaseUrl();
    if (vault.status().state !== 'ready' || bound === undefined) return { found: 'none' };
    if (baseUrl === null || baseUrl !== bound) return { found: 'other', keyBaseUrl: bound };
    const key = await vault.readKey();
    if (key === null) return { found: 'none' };
    return {
      found: 'key',
      credentials: { baseUrl, key, keyFingerprint: await keyFingerprint(key), provider },
    };
  }

  /**
   * Why there is no key for `endpoint`. A task imported from a file names its service itself, so
   * when that is not the key's service the sentence says where the address came from and never
   * invites the user to send the key there.
   */
  missingKeyReason(endpoint: string, imported = false): Sentence {
    // The demo's credentials are missing only while the built-in demo service is not running.
    if (endpoint === DEMO_ENDPOINT) return sentence('error.settings.taskDemoNotRunning');
    if (isDemoEndpoint(endpoint)) return sentence('error.settings.taskDemoDialect');
    const lives = baseUrlOrRefusal(endpoint);
    // An address Pictor does not send requests to (now): the policy says why, in its words.
    if (lives instanceof UrlPolicyError) return lives.sentence;
    const host = serviceLabel(lives);
    const owners = servicesAt(this.options.settings.get(), lives);
    if (owners.length > 1) return sentence('error.settings.taskAddressShared', { host });
    // The key that would go there: its service's, or (no service there now) today's contract's.
    const vault = this.options.keys.vault(owners[0] ?? DEFAULT_PROVIDER);
    const bound = vault.boundBaseUrl();
    const ready = vault.status().state === 'ready' && bound !== undefined;
    if (imported && (!ready || lives !== bound)) {
      return sentence('error.settings.importedOtherService', { host });
    }
    if (!ready) return sentence('error.settings.taskNoKey', { host });
    // A key saved before any address was set goes to a service only once the user says so.
    if (bound === null) return sentence('error.settings.taskKeyUnbound', { host });
    if (lives !== bound) {
      return sentence('error.settings.taskOtherOrigin', { host, keyHost: serviceLabel(bound) });
    }
    return sentence('error.settings.taskOldAddress', { endpoint });
  }

  baseUrlFor(endpoint: string): string | null {
    if (endpoint === DEMO_ENDPOINT) return this.options.demoUrl();
    return isDemoEndpoint(endpoint) ? null : serviceBaseUrl(endpoint);
  }

  /**
   * Calls `listener` whenever `isDemo()` flips (a key set or cleared, a base URL changed), for
   * main's `app:demoChanged` event, until the result is disposed.
   */
  onDemoChange(listener: (demo: boolean) => void): Disposable {
    let last = this.isDemo();
    const check = () => {
      const now = this.isDemo();
      if (now !== last) {
        last = now;
        listener(now);
      }
    };
    const subscriptions = new DisposableStore();
    // Only a service the demo stands in for turns the demo on or off with its key.
    for (const provider of PROVIDER_IDS.filter(demoStandsIn)) {
      subscriptions.add(this.options.keys.vault(provider).onDidChange(check));
    }
    subscriptions.add(this.options.settings.onDidChange(check));
    return subscriptions;
  }

  /** The normalised address of `provider`'s service (today's contract: the Settings address). */
  addressOf(provider: ProviderId): string | null {
    return serviceAddress(this.options.settings.get(), provider);
  }

  /** The one service at `baseUrl`, or null (none, or two sharing it). */
  private ownerOf(baseUrl: string): ProviderId | null {
    const owners = servicesAt(this.options.settings.get(), baseUrl);
    return owners.length === 1 ? (owners[0] ?? null) : null;
  }
}
