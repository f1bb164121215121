/**
 * The keys of `pictor mcp`: the server's own service's (SERVICE_API_KEY, bound to the address
 * it was started with), then, for the compare tool, each other provider's from its own variable
 * (`PICTOR_KEY_FAL`, …, as `pictor compare` reads them), bound to that provider's own address.
 * No key is sent to a service it was not given for: each source answers only for its addresses,
 * and a provider whose address is the server's own service's is left to that service's key.
 */
import { PROVIDER_IDS } from '../../shared/domain/providers';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import type { Sentence } from '../../shared/i18n/sentence';
import { isDemoEndpoint } from '../../shared/domain/submit-target';
import { CompareCredentials } from './compare-credentials';
import type { EnvCredentials } from './env-credentials';

export class McpCredentials implements CredentialsProvider {
  private constructor(
    private readonly own: EnvCredentials,
    private readonly others: CompareCredentials,
  ) {}

  /** The server's credentials and every other provider's whose variable is set. */
  static async create(env: NodeJS.ProcessEnv, own: EnvCredentials): Promise<McpCredentials> {
    const ownProvider = own.provider;
    const others = PROVIDER_IDS.filter((provider) => provider !== ownProvider);
    return new McpCredentials(own, await CompareCredentials.create(env, others, new Map()));
  }

  currentEndpoint(): string {
    return this.own.currentEndpoint();
  }

  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    const own = await this.own.credentialsFor(endpoint);
    if (own !== null || this.isOwn(endpoint)) return own;
    return this.others.credentialsFor(endpoint);
  }

  baseUrlFor(endpoint: string): string | null {
    return this.own.baseUrlFor(endpoint) ?? this.others.baseUrlFor(endpoint);
  }

  /** The server's key and every other provider's: each answer is searched for all of them. */
  async heldKeys(): Promise<readonly string[]> {
    return [...(await this.own.heldKeys()), ...(await this.others.heldKeys())];
  }

  missingKeyReason(endpoint: string, imported = false): string | Sentence {
    return this.isOwn(endpoint)
      ? this.own.missingKeyReason(endpoint, imported)
      : this.others.missingKeyReason(endpoint);
  }

  /** Whether `endpoint` is the server's own service (or the built-in demo): its key alone. */
  private isOwn(endpoint: string): boolean {
    if (isDemoEndpoint(endpoint)) return true;
    const baseUrl = this.own.baseUrlFor(endpoint);
    return baseUrl !== null && baseUrl === this.own.namedBaseUrl;
  }
}
