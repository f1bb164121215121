/**
 * The trust list Pictor ships (resources/c2pa/trust-anchors.pem, the C2PA conformance program's
 * list; resources/c2pa/README.md says where it comes from): a signer whose certificate chains to
 * one of these is shown as "trusted", any other valid signature as "signed by a signer Pictor
 * cannot vouch for". Tests pass their own list (with their private test CA) instead.
 */
import { readFile } from 'node:fs/promises';

/**
 * The list's name beside the main bundle (dist-electron/): the build copies it there
 * (electron/build/build-electron.ts), since electron-builder packs only the bundles' folders.
 */
export const BUNDLED_TRUST_ANCHORS_FILE = 'c2pa-trust-anchors.pem';

/** The shipped list: beside the bundle in the packaged app, in resources/ from source. */
function shippedTrustAnchorsUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(
    fromSource ? '../../../resources/c2pa/trust-anchors.pem' : `./${BUNDLED_TRUST_ANCHORS_FILE}`,
    import.meta.url,
  );
}

/** The PEM certificates of `url` (default: the shipped list); empty text when it cannot be read. */
export async function readTrustAnchors(url: URL = shippedTrustAnchorsUrl()): Promise<string> {
  return readFile(url, 'utf8').catch(() => '');
}

/** How many certificates a PEM text holds. */
export function certificateCount(pem: string): number {
  return pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
}
