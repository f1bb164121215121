/**
 * Reads and validates an image's C2PA manifest store (its Content Credentials) where hostile bytes
 * cost nothing: plain-Node hosts run @contentauth/c2pa-wasm in a worker thread that is ended when
 * it overruns its time (core/content-credentials); the app's sandboxed image renderer can run the
 * same library behind this port. The core only asks once it found a store in the file's
 * container (gallery/metadata/c2pa-detect.ts), and records what comes back.
 */
import type { CredentialVerdict } from '../../shared/domain/content-credentials';
import type { ImageFormat } from './image-engine';

/**
 * One image to verify: its bytes, read by the caller from the one handle it opened inside its
 * folder (core/download/credentials-step.ts). A verifier never opens a path of its own: a folder
 * swapped for a link, or a FIFO swapped in, between the caller's open and another would lead it
 * outside the gallery or hang it.
 */
export interface CredentialRequest {
  readonly bytes: Uint8Array;
  readonly format: ImageFormat;
  readonly signal?: AbortSignal;
  /**
   * Whose image it is, so that one source's stores cannot hold up another's
   * (core/content-credentials/fair-verifier.ts). Absent: an image of its own (`pictor info`).
   */
  readonly owner?: CredentialOwner;
}

/**
 * Who an image to verify came from. Stores take turns by `service`; the stores of one `task`
 * share one time budget.
 */
export interface CredentialOwner {
  /** The service's base URL (`demo:` for the demo), or `library` for a rebuild or an import. */
  readonly service: string;
  /** The task's local id, or whatever stands for one (an imported file). */
  readonly task: string;
}

export type { CredentialVerdict };

/**
 * A C2PA verifier. `verify` never rejects for anything in the file: a file too big, a store that
 * does not parse, a verification that overruns its time all answer `unreadable`. It rejects only
 * when the verifier itself cannot run (the library failed to load) or the signal aborted.
 */
export interface ContentCredentialVerifier {
  verify(request: CredentialRequest): Promise<CredentialVerdict>;
  /** Ends what the verifier started (workers). */
  dispose(): Promise<void>;
}
