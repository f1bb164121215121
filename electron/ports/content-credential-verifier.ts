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
 * folder (core/gallery/credentials-step.ts). A verifier never opens a path of its own: a folder
 * swapped for a link, or a FIFO swapped in, between the caller's open and another would lead it
 * outside the gallery or hang it.
 */
export interface CredentialRequest {
  readonly bytes: Uint8Array;
  readonly format: ImageFormat;
  readonly signal?: AbortSignal;
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
