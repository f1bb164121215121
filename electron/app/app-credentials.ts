/**
 * The app's credentials: the user's service with the key from the vault once both a key and a
 * base URL are set, the embedded demo service until then. The key is read from the vault at the
 * moment a request needs it and not kept, and only for the base URL it was entered for.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import type { KeyStatus } from '../../shared/domain/key-status';
import type { Settings } from '../../shared/domain/settings';
import { sentence, type Sentence } from '../../shared/i18n/sentence';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { DisposableStore, type Disposable } from '../ports/disposable';
import { DEMO_ENDPOINT, DEMO_KEY } from '../core/credentials/demo-endpoint';
import { baseUrlOrRefusal, serviceBaseUrl, serviceLabel } from '../core/credentials/key-binding';
import type { StoredKeyFor } from '../core/service/connection-test';
import { UrlPolicyError } from '../core/service/url-policy';

/** What AppCredentials needs of the key vault. */
export interface KeySource {
  status(): KeyStatus;
  readKey(): Promise<string | null>;
  /** The base URL the stored key was entered for (see KeyVault.boundBaseUrl). */
  boundBaseUrl(): string | null | undefined;
  onChange(listener: (status: KeyStatus) => void): Disposable;
}

/** What AppCredentials needs of the settings. */
export interface BaseUrlSource {
  get(): Pick<Settings, 'baseUrl'>;
  onChange(listener: (settings: Settings) => void): Disposable;
}

export interface AppCredentialsOptions {
  readonly vault: KeySource;
  readonly settings: BaseUrlSource;
  /** The running demo service's base URL (random loopback port), or null when it is not running. */
  readonly demoUrl: () => string | null;
}

export class AppCredentials implements CredentialsProvider {
  constructor(private readonly options: AppCredentialsOptions) {}

  /** The user's normalised base URL when a key is ready and a base URL is set, else `demo:`. */
  currentEndpoint(): string {
    if (this.options.vault.status().state !== 'ready') return DEMO_ENDPOINT;
    return this.userBaseUrl() ?? DEMO_ENDPOINT;
  }

  /** True while new tasks go to the demo service (the UI says so). */
  isDemo(): boolean {
    return this.currentEndpoint() === DEMO_ENDPOINT;
  }

  /**
   * Demo credentials for `demo:`; the vault's key for the current base URL when the key was
   * entered for that base URL; null for any other endpoint (a task made with an earlier base URL
   * waits, visibly, until that URL is set again) and whenever the base URLs differ.
   */
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    if (endpoint === DEMO_ENDPOINT) {
      const baseUrl = this.options.demoUrl();
      return baseUrl === null
        ? null
        : { baseUrl, key: DEMO_KEY, keyFingerprint: await keyFingerprint(DEMO_KEY) };
    }
    const baseUrl = this.userBaseUrl();
    if (baseUrl === null || serviceBaseUrl(endpoint) !== baseUrl) return null;
    if (baseUrl !== this.options.vault.boundBaseUrl()) return null;
    const key = await this.options.vault.readKey();
    if (key === null) return null;
    return { baseUrl, key, keyFingerprint: await keyFingerprint(key) };
  }

  /**
   * The stored key for `baseUrl`, a service address typed in Settings and perhaps not saved yet
   * (for "Test connection"): only when the key was entered for that base URL.
   */
  async storedKeyFor(baseUrl: string): Promise<StoredKeyFor> {
    const { vault } = this.options;
    const bound = vault.boundBaseUrl();
    if (vault.status().state !== 'ready' || bound === undefined) return { found: 'none' };
    const normalised = serviceBaseUrl(baseUrl);
    if (normalised === null || normalised !== bound) return { found: 'other', keyBaseUrl: bound };
    const key = await vault.readKey();
    if (key === null) return { found: 'none' };
    return {
      found: 'key',
      credentials: { baseUrl: normalised, key, keyFingerprint: await keyFingerprint(key) },
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
    const lives = baseUrlOrRefusal(endpoint);
    // An address Pictor does not send requests to (now): the policy says why, in its words.
    if (lives instanceof UrlPolicyError) return lives.sentence;
    const host = serviceLabel(lives);
    const bound = this.options.vault.boundBaseUrl();
    const ready = this.options.vault.status().state === 'ready' && bound !== undefined;
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
    return endpoint === DEMO_ENDPOINT ? this.options.demoUrl() : serviceBaseUrl(endpoint);
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
    subscriptions.add(this.options.vault.onChange(check));
    subscriptions.add(this.options.settings.onChange(check));
    return subscriptions;
  }

  private userBaseUrl(): string | null {
    return serviceBaseUrl(this.options.settings.get().baseUrl);
  }
}
