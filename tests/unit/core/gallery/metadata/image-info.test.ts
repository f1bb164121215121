/**
 * `pictor info`'s reading of one file (inspectImage): the verifier is asked only about a file that
 * carries a manifest store, within the download's bounds (a store over the cap is `unreadable`
 * without being parsed), and the prompt comes from the image or the XMP beside it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_STORE_BYTES } from '../../../../../electron/core/gallery/metadata/c2pa-verdict';
import { inspectImage } from '../../../../../electron/core/gallery/metadata/image-info';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import type {
  ContentCredentialVerifier,
  CredentialRequest,
} from '../../../../../electron/ports/content-credential-verifier';
import {
  c2paFixture,
  c2paSuperbox,
  provenancePacket,
  withPngStore,
  withXmp,
} from '../../../../support/c2pa-hostile';
import { SIGNED_VERDICT } from '../../../../support/c2pa-hostile-cases';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

let dir: string;
beforeEach(async () => {
  dir = await tempFolder('info');
});
afterEach(() => removeFolder(dir));

/** A verifier that says the signed fixtures' verdict and remembers what it was asked. */
function recordingVerifier(): ContentCredentialVerifier & { asked: CredentialRequest[] } {
  const asked: CredentialRequest[] = [];
  return {
    asked,
    verify: (request) => {
      asked.push(request);
      return Promise.resolve(SIGNED_VERDICT);
    },
    dispose: () => Promise.resolve(),
  };
}

describe('inspectImage', () => {
  it('verifies a signed image and reads its prompt from the XMP beside it', async () => {
    const file = join(dir, 'image-1.png');
    await writeFile(file, c2paFixture('signed.png'));
    await writeFile(join(dir, 'image-1.xmp'), buildXmpPacket(sampleProvenance({ prompt: 'p' }))!);
    const verifier = recordingVerifier();
    await expect(inspectImage(file, verifier)).resolves.toMatchObject({
      format: 'png',
      xmp: 'sidecar',
      provenance: { prompt: 'p' },
      contentCredentials: SIGNED_VERDICT,
    });
    // The bytes it read from the file it opened, not a path to open again.
    expect(verifier.asked).toEqual([{ bytes: c2paFixture('signed.png'), format: 'png' }]);
  });

  it('does not ask the verifier about a plain image, a remote store, nor a store over the cap', async () => {
    const plain = join(dir, 'plain.webp');
    await writeFile(plain, await makeEncoded(ENCODINGS[3]!, 16, 16));
    const huge = join(dir, 'huge.png');
    const store = c2paSuperbox(Buffer.alloc(MAX_STORE_BYTES + 1024, 0x41));
    await writeFile(huge, withPngStore(c2paFixture('signed.png'), store));
    const remote = join(dir, 'remote.png');
    const packet = provenancePacket('https://manifests.example.com/urn-1');
    await writeFile(remote, withXmp('png', await makeEncoded(ENCODINGS[0]!, 16, 16), packet));
    const verifier = recordingVerifier();
    await expect(inspectImage(plain, verifier)).resolves.toMatchObject({
      contentCredentials: { state: 'none' },
    });
    // Kept online, named in its XMP: never fetched, so not read either.
    await expect(inspectImage(remote, verifier)).resolves.toMatchObject({
      contentCredentials: { state: 'unreadable', remote: true },
    });
    await expect(inspectImage(huge, verifier)).resolves.toMatchObject({
      contentCredentials: { state: 'unreadable' },
    });
    expect(verifier.asked).toEqual([]);
  });
});
