/**
 * The CLI's credentials: one key from SERVICE_API_KEY (as in the spec's examples), used for the
 * endpoint being submitted to and for resuming tasks stored with any base URL.
 */
import { keyFingerprint } from '../../shared/domain/fingerprint';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { checkBaseUrl } from '../core/service/url-policy';

export class EnvCredentials implements CredentialsProvider {
  private constructor(
    private readonly endpoint: string | null,
    private readonly key: string | null,
    private readonly account: string | null,
  ) {}

  /** @param baseUrl the endpoint new tasks go to; checked here so a bad URL is a usage error. */
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

  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    const baseUrl = this.baseUrlFor(endpoint);
    if (!baseUrl || !this.key || !this.account) return null;
    return { baseUrl, key: this.key, account: this.account };
  }

  /** Stored endpoints are base URLs; the app's built-in demo (`demo:`) is not reachable from here. */
  baseUrlFor(endpoint: string): string | null {
    try {
      return checkBaseUrl(endpoint);
    } catch {
      return null;
    }
  }
}
