/**
 * The CLI's credentials: one key from SERVICE_API_KEY (as in the spec's examples), bound to one
 * provider (--provider) and one base URL (--base-url, else that provider's own address;
 * normalised: origin and path) and sent nowhere else: not to the endpoint a history record names
 * (a crafted sidecar, an archive, a task of another tenant of the same gateway), not to any other,
 * and never with a task of another provider (the core refuses: another profile would send the
 * key in another header, or read another service's words as this one's).
 *
 * With `--provider demo` (demo-choice.ts) the command runs the built-in demo service itself and
 * SERVICE_API_KEY is not read at all: the demo's key goes to the demo (`demo:`), and no key goes
 * anywhere else.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import {
  DEFAULT_PROVIDER,
  NO_KEY,
  worksWithoutKey,
  type ProviderId,
} from '../../shared/domain/providers';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import {
  baseUrlOrRefusal,
  checkBaseUrl,
  DEMO_ENDPOINT,
  DEMO_KEY,
  demoProviderOf,
  isDemoEndpoint,
  serviceLabel,
  UrlPolicyError,
} from '../core/service';

export class EnvCredentials implements CredentialsProvider {
  private constructor(
    private readonly endpoint: string | null,
    /** SERVICE_API_KEY and its fingerprint; null when it is not set (or not read). */
    private readonly key: { readonly text: string; readonly fingerprint: string } | null,
    /** The kind of service the key is for (--provider). */
    readonly provider: ProviderId,
    /** The built-in demo this command runs (--provider demo); absent: none runs. */
    private readonly demo?: DemoAddress,
  ) {}

  /**
   * @param baseUrl the service the key is for (--base-url, or the provider's own address),
   *   where new tasks go; checked here so a bad URL is a usage error. Null: the key is sent
   *   nowhere.
   * @param provider the kind of service the key is for (--provider); new tasks are its tasks.
   * @param demo the built-in demo this command runs (--provider demo): `demo:` tasks go there
   *   with the demo's key, and SERVICE_API_KEY is not read.
   */
  static async create(
    env: NodeJS.ProcessEnv,
    baseUrl: string | null,
    provider: ProviderId = DEFAULT_PROVIDER,
    demo?: DemoAddress,
  ): Promise<EnvCredentials> {
    const text = demo ? null : env.SERVICE_API_KEY?.trim() || null;
    const endpoint = baseUrl === null || demo ? null : checkBaseUrl(baseUrl);
    const key = text ? { text, fingerprint: await keyFingerprint(text) } : null;
    return new EnvCredentials(endpoint, key, provider, demo);
  }

  /**
   * The base URL the key is for (checkBaseUrl's spelling): --base-url's, or the provider's own
   * address; null when there is none.
   */
  get namedBaseUrl(): string | null {
    return this.endpoint;
  }

  get hasKey(): boolean {
    return this.key !== null;
  }

  /** The key this command holds (SERVICE_API_KEY), searched for in every answer. */
  heldKeys(): Promise<readonly string[]> {
    return Promise.resolve(this.key ? [this.key.text] : []);
  }

  currentEndpoint(): string {
    if (this.demo) return DEMO_ENDPOINT;
    if (this.endpoint === null) throw new Error('This command does not submit.');
    return this.endpoint;
  }

  /**
   * The key, for an endpoint whose base URL is the named one only; it carries the provider, so
   * the core sends it with that provider's tasks only.
   */
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    if (isDemoEndpoint(endpoint)) return demoCredentials(this.demo, endpoint);
    const baseUrl = this.baseUrlFor(endpoint);
    if (!baseUrl || this.endpoint === null || baseUrl !== this.endpoint) return null;
    if (!this.key) {
      // A local engine (ComfyUI) works with no key: its requests go without one.
      if (!worksWithoutKey(this.provider)) return null;
      return {
        baseUrl,
        key: NO_KEY,
        keyFingerprint: await keyFingerprint(NO_KEY),
        provider: this.provider,
      };
    }
    const { text, fingerprint } = this.key;
    return { baseUrl, key: text, keyFingerprint: fingerprint, provider: this.provider };
  }

  /**
   * Stored endpoints are base URLs, and `demo:` (`demo:fal`, …) the built-in demo: the one this
   * command runs of that dialect, if it runs one.
   */
  baseUrlFor(endpoint: string): string | null {
    return storedBaseUrl(this.demo, endpoint);
  }

  /**
   * Why a task waits, in the CLI's words. The address a task's record gives is never said (a
   * crafted sidecar or archive writes it; typed back with SERVICE_API_KEY set, it would get the
   * key): the user names the service with --base-url themselves. A task imported from a file
   * names its service itself: the sentence says so.
   */
  missingKeyReason(endpoint: string, imported = false): string {
    if (isDemoEndpoint(endpoint)) return DEMO_TASK_REASON;
    const lives = baseUrlOrRefusal(endpoint);
    // An address Pictor does not send requests to: the URL policy says why, in its words.
    if (lives instanceof UrlPolicyError) return lives.message;
    const typed = "its service's address after --base-url, typed by you";
    if (this.demo) {
      return `This task lives on another service, and this command runs the built-in demo service (--provider demo), which sends no key anywhere. Resume it with its --provider, ${typed}, and SERVICE_API_KEY set to a key of that service.`;
    }
    if (imported && lives !== this.endpoint) {
      return 'This task was imported, and the service it names comes from the imported file, not from you. SERVICE_API_KEY is sent only to the service you name with --base-url; if you use that service, type its address after --base-url yourself.';
    }
    if (this.endpoint === null) {
      return `This task lives on a service this command does not name. SERVICE_API_KEY is sent only to the service named with --base-url (or --provider's own address): resume with ${typed}, and its --provider.`;
    }
    if (this.endpoint !== lives) {
      return `This task lives on another service than ${serviceLabel(this.endpoint)}, the one SERVICE_API_KEY is for, and the key is never sent to another service. Resume it with ${typed}, its --provider, and a key of that service.`;
    }
    return 'SERVICE_API_KEY is not set. Set it to your API key for this service, then resume.';
  }
}

/**
 * Where the command's built-in demo of a dialect listens (built-in-demo.ts), by its endpoint
 * (`demo:`, `demo:fal`, …): null until it runs, and for any other endpoint.
 */
export interface DemoAddress {
  urlOf(endpoint: string): string | null;
}

/**
 * The address a stored endpoint names: a base URL the URL policy takes, or for `demo:` (`demo:fal`,
 * …) the command's own demo of that dialect; null for anything else.
 */
export function storedBaseUrl(demo: DemoAddress | undefined, endpoint: string): string | null {
  if (isDemoEndpoint(endpoint)) return demo?.urlOf(endpoint) ?? null;
  try {
    return checkBaseUrl(endpoint);
  } catch {
    return null;
  }
}

/**
 * The demo's key, for the demo of `endpoint`'s dialect this command runs, with that dialect's
 * provider (so the core sends it with that provider's tasks only); null when it runs none there.
 */
export async function demoCredentials(
  demo: DemoAddress | undefined,
  endpoint: string,
): Promise<ServiceCredentials | null> {
  const baseUrl = demo?.urlOf(endpoint) ?? null;
  const provider = demoProviderOf(endpoint);
  if (baseUrl === null || provider === null) return null;
  return { baseUrl, key: DEMO_KEY, keyFingerprint: await keyFingerprint(DEMO_KEY), provider };
}

/** Why a demo task waits: the command runs no demo of its dialect. */
export const DEMO_TASK_REASON =
  "This task was made on Pictor's built-in demo service. Resume it with --provider demo, which runs that service inside the command (no key needed).";
