import type { ProviderId } from '../../shared/domain/providers';
import type { Sentence } from '../../shared/i18n/sentence';

/** What a request to the service needs: where it goes and the key it carries. */
export interface ServiceCredentials {
  /** `https:` URL, or `http:` on a loopback host. */
  readonly baseUrl: string;
  readonly key: string;
  /**
   * {@link keyFingerprint} of `key`: compared with a task record's `account` (the fingerprint of
   * the key that created the task) to tell whether this key created it.
   */
  readonly keyFingerprint: string;
  /**
   * The kind of service the key was entered for (its profile: how the key is sent, the words of
   * its answers); absent: today's contract. A task of another provider never gets this key.
   */
  readonly provider?: ProviderId;
}

/**
 * Supplies the key for an endpoint at the moment a request needs it, so the key is decrypted
 * only then and never cached in core objects. The app reads the vault; the CLI reads
 * `SERVICE_API_KEY`; tests pass an in-memory one.
 */
export interface CredentialsProvider {
  /**
   * The endpoint of the service chosen now (a base URL, or `demo:` for the built-in service):
   * where a task id tracked without an address is looked for. Never where a submit goes: a
   * submit carries its own target (shared/domain/submit-target.ts).
   */
  currentEndpoint(): string;
  /** Credentials for `endpoint`, or `null` when no key is available for it now. */
  credentialsFor(endpoint: string): Promise<ServiceCredentials | null>;
  /**
   * Every key this process holds now, whichever service it is for (the app: each service's
   * vault, ServiceKeys.readableKeys; the command line: the variables it read), read for one call
   * and not kept. The service client searches every answer for each of them, not only for the
   * key it sent: a hostile service may echo a key it learnt elsewhere. Optional: none but the
   * key sent otherwise. `untilKnown`: once the OS's storage has answered (a keychain prompt may
   * keep it), for what leaves the app (core/secrets/held-key-scrub.ts, the one rule); without
   * it, none while the storage has not answered (a request never waits for a prompt).
   */
  heldKeys?(untilKnown?: boolean): Promise<readonly string[]>;
  /** The base URL behind `endpoint` (for image URL policy), without needing the key. */
  baseUrlFor(endpoint: string): string | null;
  /**
   * Why {@link credentialsFor} has no key for `endpoint`, as a sentence that says what to do
   * (the app points to Settings, as a catalogue sentence; the CLI to --base-url, in English).
   * `imported`: the record came from a file (an archive, a gallery folder), so the endpoint is
   * the file's word, not the user's: the sentence must say so and never invite sending the key
   * there. Optional: a generic sentence otherwise.
   */
  missingKeyReason?(endpoint: string, imported?: boolean): string | Sentence;
}
