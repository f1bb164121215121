/**
 * Messages between the verifier (c2pa-verifier.ts) and its worker (c2pa-worker.ts). Types only:
 * the worker runs from its own bundle, and from source under Node's type stripping.
 */
import type { C2paMime, C2paRead } from '../../../shared/content-credentials/c2pa-read.ts';

/** What the worker is started with. */
export interface C2paWorkerData {
  /** The PEM certificates a signer must chain to for "trusted". */
  readonly trustAnchors: string;
}

/** One image to verify, its bytes as the caller read them (the worker opens no file). */
export interface C2paRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly mime: C2paMime;
}

export type C2paMessage =
  | { readonly kind: 'ready' }
  /** The library could not load: nothing will verify in this process. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  | ({ readonly kind: 'verdict'; readonly id: number } & C2paRead);
