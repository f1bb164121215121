/**
 * The keys of `pictor compare`: one per provider, each from its own environment variable
 * (`PICTOR_KEY_FAL`, `PICTOR_KEY_BFL`, …, {@link keyVariable}), bound to that provider's address
 * (`--base-url PROVIDER=ORIGIN`, else the provider's own) and sent nowhere else, and only with
 * that provider's tasks. SERVICE_API_KEY is not read: one key is never sent to several services.
 * A `demo` target's tasks (`demo:`; `demo:fal`, … for the demo speaking that provider's dialect)
 * go to the built-in demo of that dialect the command runs, with the demo's key, and no real key
 * is read for them.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { checkBaseUrl, isDemoEndpoint, serviceLabel } from '../core/service';
import { UsageError } from '../core/command-line';
import {
  DEMO_TASK_REASON,
  demoCredentials,
  storedBaseUrl,
  type DemoAddress,
} from './env-credentials';
import { keyVariable } from './key-variables';

interface BoundKey {
  readonly provider: ProviderId;
  readonly baseUrl: string;
  readonly key: string;
  readonly fingerprint: string;
}

export class CompareCredentials implements CredentialsProvider {
  private constructor(
    private readonly keys: readonly BoundKey[],
    /** The built-in demo the command runs (a `demo` target); absent: none runs. */
    private readonly demo?: DemoAddress,
  ) {}

  /**
   * @param providers the providers the compare names
   * @param baseUrls --base-url PROVIDER=ORIGIN, by provider
   * @param demo the built-in demo the command runs for its `demo` targets
   * @throws UsageError when two providers would share one address (whose key would go there?)
   */
  static async create(
    env: NodeJS.ProcessEnv,
    providers: readonly ProviderId[],
    baseUrls: ReadonlyMap<ProviderId, string>,
    demo?: DemoAddress,
  ): Promise<CompareCredentials> {
    const keys: BoundKey[] = [];
    for (const provider of new Set(providers)) {
      const typed = baseUrls.get(provider) ?? PROVIDERS[provider].defaultBaseUrl;
      const key = env[keyVariable(provider)]?.trim();
      if (!typed || !key) continue;
      const baseUrl = checkBaseUrl(typed);
      if (keys.some((other) => other.baseUrl === baseUrl)) {
        throw new UsageError(
          `Two providers of this compare name the same address (${serviceLabel(baseUrl)}): give each its own --base-url.`,
        );
      }
      keys.push({ provider, baseUrl, key, fingerprint: await keyFingerprint(key) });
    }
    return new CompareCredentials(keys, demo);
  }

  currentEndpoint(): string {
    throw new Error('A compare names each target’s address itself.');
  }

  /** Every provider's key this compare holds: each answer is searched for all of them. */
  heldKeys(): Promise<readonly string[]> {
    return Promise.resolve(this.keys.map((bound) => bound.key));
  }

  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    if (isDemoEndpoint(endpoint)) return demoCredentials(this.demo, endpoint);
    const baseUrl = this.baseUrlFor(endpoint);
    const bound = this.keys.find((one) => one.baseUrl === baseUrl);
    if (!bound) return null;
    const { key, fingerprint, provider } = bound;
    return { baseUrl: bound.baseUrl, key, keyFingerprint: fingerprint, provider };
  }

  baseUrlFor(endpoint: string): string | null {
    return storedBaseUrl(this.demo, endpoint);
  }

  /** Why a task waits; the address a record gives is never said (env-credentials.ts). */
  missingKeyReason(endpoint: string): string {
    if (isDemoEndpoint(endpoint)) return DEMO_TASK_REASON;
    return `No key for its service in this compare: set PICTOR_KEY_<PROVIDER> (as ${keyVariable('fal')}) for its provider, and --base-url PROVIDER=ORIGIN when it is not the provider's own address.`;
  }
}
