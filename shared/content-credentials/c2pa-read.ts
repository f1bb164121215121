/**
 * One file's Content Credentials read with @contentauth/c2pa-wasm (c2pa-rs compiled to
 * WebAssembly), the same way wherever it runs: in the Node hosts' worker thread
 * (electron/core/content-credentials/c2pa-worker.ts) and in the sandboxed image renderer's page
 * (electron/image-renderer/c2pa-worker.ts). The caller loads the library and reads the bytes
 * within its bounds; this turns them into a verdict. Nothing here reaches the network: remote
 * manifests and OCSP are off in the reader's settings. Imports carry `.ts` for Node's type
 * stripping.
 */
import type * as C2paModule from '@contentauth/c2pa-wasm';
import type { CredentialVerdict } from '../domain/content-credentials.ts';
import { verdictOf } from './c2pa-verdict.ts';

export type C2pa = typeof C2paModule;

/** The formats Pictor verifies, as the library names them. */
export type C2paMime = 'image/png' | 'image/jpeg' | 'image/webp';

/** What reading one file gave. */
export interface C2paRead {
  readonly verdict: CredentialVerdict;
  /**
   * The WebAssembly code trapped (not a C2PA error it reported): its state is not to be trusted
   * for the next file, so whatever ran it is replaced.
   */
  readonly trapped: boolean;
  /** For the log: C2PA's own error name, or the trap's. Names nothing from the file. */
  readonly detail?: string;
}

/** The reader's settings: the trust list given (PEM), no network. */
export function readerSettings(trustAnchors: string): string {
  return JSON.stringify({
    verify: {
      verify_trust: true,
      verify_timestamp_trust: true,
      ocsp_fetch: false,
      remote_manifest_fetch: false,
    },
    ...(trustAnchors.includes('BEGIN CERTIFICATE')
      ? { trust: { trust_anchors: trustAnchors } }
      : {}),
  });
}

/** The verdict on `bytes`; never throws for anything in them. */
export async function readCredentials(
  c2pa: C2pa,
  mime: C2paMime,
  bytes: Uint8Array,
  settings: string,
): Promise<C2paRead> {
  let reader: C2paModule.WasmReader | undefined;
  try {
    reader = await c2pa.WasmReader.fromBytes(mime, bytes, settings);
    return { verdict: verdictOf(JSON.parse(reader.json()) as unknown), trapped: false };
  } catch (error) {
    // c2pa-rs reports its own errors as strings (`C2pa(JumbfNotFound)`); anything else is a trap.
    const reported = typeof error === 'string';
    const detail = reported
      ? (/^C2pa\((\w+)/.exec(error)?.[1] ?? 'C2paError')
      : error instanceof Error
        ? error.name
        : typeof error;
    return { verdict: { state: 'unreadable' }, trapped: !reported, detail };
  } finally {
    try {
      reader?.free();
    } catch {
      // A reader whose code trapped may not free; whatever ran it is replaced anyway.
    }
  }
}
