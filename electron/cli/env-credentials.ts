/**
 * The CLI's credentials: one key from SERVICE_API_KEY (as in the spec's examples), bound to the
 * base URL named with --base-url (normalised: origin and path) and sent nowhere else: not to the
 * endpoint a history record names (a crafted sidecar, an archive, a task of another provider or
 * of another tenant of the same gateway), not to any other.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { DEMO_ENDPOINT } from '../core/credentials/demo-endpoint';
import { baseUrlOrRefusal, serviceLabel } from '../core/credentials/key-binding';
import { checkBaseUrl, UrlPolicyError } from '../core/service/url-policy';

export class EnvCredentials implements CredentialsProvider {
  private constructor(
    private readonly endpoint: string | null,
    private readonly key: string | null,
    private readonly fingerprint: string | null,
  ) {}

  /**
   * @param baseUrl the service the key is for (--base-url), where new tasks go; checked here so
   *   a bad URL is a usage error. Null: the key is sent nowhere.
   */
  static async create(env: NodeJS.ProcessEnv, baseUrl: string | null): Promise<EnvCredentials> {
    const key = env.SERVICE_API_KEY?.trim() || null;
    const endpoint = baseUrl === null ? null : checkBaseUrl(baseUrl);
    return new EnvCredentials(endpoint, key, key ? await keyFingerprint(key) : null);
  }

  /** The base URL named with --base-url (checkBaseUrl's spelling), or null when none was. */
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

  /** The key, for an endpoint whose base URL is --base-url's only. */
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    const baseUrl = this.baseUrlFor(endpoint);
    if (!baseUrl || !this.key || !this.fingerprint || this.endpoint === null) return null;
    if (baseUrl !== this.endpoint) return null;
    return { baseUrl, key: this.key, keyFingerprint: this.fingerprint };
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
      return `This task lives on ${host}. SERVICE_API_KEY is sent only to the service named with --base-url: resume with --base-url and that service's address.`;
    }
    if (this.endpoint !== lives) {
      return `This task lives on ${host}, but SERVICE_API_KEY is for ${serviceLabel(this.endpoint)} and is never sent to another service. Resume it with --base-url and the key of ${host}.`;
    }
    return 'SERVICE_API_KEY is not set. Set it to your API key for this service, then resume.';
  }
}
