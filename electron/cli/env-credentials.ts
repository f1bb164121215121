/**
 * The CLI's credentials: one key from SERVICE_API_KEY (as in the spec's examples), bound to the
 * origin of the service named with --base-url and sent nowhere else: not to the endpoint a
 * history record names (a crafted sidecar, a task of another provider), not to any other.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { DEMO_ENDPOINT } from '../core/credentials/demo-endpoint';
import { originLabel, originOrRefusal, serviceOrigin } from '../core/credentials/key-origin';
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

  get hasKey(): boolean {
    return this.key !== null;
  }

  currentEndpoint(): string {
    if (this.endpoint === null) throw new Error('This command does not submit.');
    return this.endpoint;
  }

  /** The key, for an endpoint on the origin of --base-url only. */
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    const baseUrl = this.baseUrlFor(endpoint);
    if (!baseUrl || !this.key || !this.fingerprint || this.endpoint === null) return null;
    if (serviceOrigin(baseUrl) !== serviceOrigin(this.endpoint)) return null;
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

  missingKeyReason(endpoint: string): string {
    if (endpoint === DEMO_ENDPOINT) {
      return "This task was made on the app's built-in demo service, which the command line does not reach. Open Pictor to see it.";
    }
    const lives = originOrRefusal(endpoint);
    // An address Pictor does not send requests to: the URL policy says why, in its words.
    if (lives instanceof UrlPolicyError) return lives.message;
    const host = originLabel(lives);
    if (this.endpoint === null) {
      return `This task lives on ${host}. SERVICE_API_KEY is sent only to the service named with --base-url: resume with --base-url and that service's address.`;
    }
    // --base-url passed checkBaseUrl in create(): it has an origin.
    const keyOrigin = new URL(this.endpoint).origin;
    if (keyOrigin !== lives) {
      return `This task lives on ${host}, but SERVICE_API_KEY is for ${originLabel(keyOrigin)} and is never sent to another service. Resume it with --base-url and the key of ${host}.`;
    }
    return 'SERVICE_API_KEY is not set. Set it to your API key for this service, then resume.';
  }
}
