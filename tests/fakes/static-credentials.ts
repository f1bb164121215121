import { createHash } from 'node:crypto';
import type { CredentialsProvider, ServiceCredentials } from '../../electron/ports/credentials';

/**
 * Same result as shared/domain/fingerprint.ts keyFingerprint, but synchronous: Web Crypto's digest
 * runs on the thread pool, which a manual clock's promise flushing cannot wait for.
 */
export function syncFingerprint(key: string): string {
  return createHash('sha256').update(`pictor-key:${key}`).digest('hex').slice(0, 12);
}

/**
 * Credentials held in memory; `setKey` stands for the user pasting another key. `held`: the other
 * keys the process holds (another service's, say), listed by heldKeys with the current one.
 */
export class StaticCredentials implements CredentialsProvider {
  private key: string | null;

  constructor(
    private readonly baseUrl: string,
    key: string | null,
    private readonly endpoint = baseUrl,
    private readonly held: readonly string[] = [],
  ) {
    this.key = key;
  }

  heldKeys(): Promise<readonly string[]> {
    return Promise.resolve([...(this.key ? [this.key] : []), ...this.held]);
  }

  setKey(key: string | null): void {
    this.key = key;
  }

  currentEndpoint(): string {
    return this.endpoint;
  }

  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    if (endpoint !== this.endpoint || !this.key) return null;
    return { baseUrl: this.baseUrl, key: this.key, keyFingerprint: syncFingerprint(this.key) };
  }

  baseUrlFor(endpoint: string): string | null {
    return endpoint === this.endpoint ? this.baseUrl : null;
  }
}
