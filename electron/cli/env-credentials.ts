/**
 * The CLI's credentials: one key from SERVICE_API_KEY (as in the spec's examples), bound to one
 * provider (--provider) and one base URL (--base-url, else that provider's own address;
 * normalised: origin and path) and sent nowhere else: not to the endpoint a history record names
 * (a crafted sidecar, an archive, a task of another tenant of the same gateway), not to any other,
 * and never with a task of another provider (the core refuses: another profile would send the
 * key in another header, or read another service's words as this one's).
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import { DEFAULT_PROVIDER, type ProviderId } from '../../shared/domain/providers';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { DEMO_ENDPOINT } from '../core/credentials/demo-endpoint';
import { baseUrlOrRefusal, serviceLabel } from '../core/credentials/key-binding';
import { checkBaseUrl, UrlPolicyError } from '../core/service/url-policy';

export class EnvCredentials implements CredentialsProvider {
  private constructor(
    private readonly endpoint: string | null,
    private readonly key: string | null,
    private readonly fingerprint: string | null,
    /** The kind of service the key is for (--provider). */
    readonly provider: ProviderId,
  ) {}

  /**
   * @param baseUrl the service the key is for (--base-url, or the provider's own address),
   *   where new tasks go; checked here so a bad URL is a usage error. Null: the key is sent
   *   nowhere.
   * @param provider the kind of service the key is for (--provider); new tasks are its tasks.
   */
  static async create(
    env: NodeJS.ProcessEnv,
    baseUrl: string | null,
    provider: ProviderId = DEFAULT_PROVIDER,
  ): Promise<EnvCredentials> {
    const key = env.SERVICE_API_KEY?.trim() || null;
    const endpoint = baseUrl === null ? null : checkBaseUrl(baseUrl);
    return new EnvCredentials(endpoint, key, key ? await keyFingerprint(key) : null, provider);
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

  currentEndpoint(): string {
    if (this.endpoint === null) throw new Error('This command does not submit.');
    return this.endpoint;
  }

  /**
   * The key, for an endpoint whose base URL is the named one only; it carries the provider, so
   * the core sends it with that provider's tasks only.
   */
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    const baseUrl = this.baseUrlFor(endpoint);
    if (!baseUrl || !this.key || !this.fingerprint || this.endpoint === null) return null;
    if (baseUrl !== this.endpoint) return null;
    return { baseUrl, key: this.key, keyFingerprint: this.fingerprint, provider: this.provider };
  }

  /** Stored endpoints are base URLs; the app's built-in demo (`demo:`) is not reachable from here. */
  baseUrlFor(endpoint: string): string | null {
    try {
      return checkBaseUrl(endpoint);
    } catch {
      return null;
    }
  }

  /**
   * Why a task waits, in the CLI's words. A task imported from a file names its service itself:
   * the sentence says so, and that the key goes only where --base-url says.
   */
  missingKeyReason(endpoint: string, imported = false): string {
    if (endpoint === DEMO_ENDPOINT) {
      return "This task was made on the app's built-in demo service, which the command line does not reach. Open Pictor to see it.";
    }
    const lives = baseUrlOrRefusal(endpoint);
    // An address Pictor does not send requests to: the URL policy says why, in its words.
    if (lives instanceof UrlPolicyError) return lives.message;
    const host = serviceLabel(lives);
    if (imported && lives !== this.endpoint) {
      return `This task was imported, and the service it names (${host}) comes from the imported file, not from you. SERVICE_API_KEY is sent only to the service you name with --base-url; if you use that service, type its address after --base-url yourself.`;
    }
    if (this.endpoint === null) {
      return `This task lives on ${host}. SERVICE_API_KEY is sent only to the service named with --base-url (or --provider's own address): resume with --base-url and that service's address, and its --provider.`;
    }
    if (this.endpoint !== lives) {
      return `This task lives on ${host}, but SERVICE_API_KEY is for ${serviceLabel(this.endpoint)} and is never sent to another service. Resume it with --base-url and the key of ${host}, and its --provider.`;
    }
    return 'SERVICE_API_KEY is not set. Set it to your API key for this service, then resume.';
  }
}
