/**
 * A service that signs its images with C2PA Content Credentials, through the real CLI and the
 * real download path (the quirky service's image origin serves the signed fixtures as they are):
 * each saved image is byte-identical to what the service sent, so it still validates as the
 * service signed it; its XMP (the prompt and Pictor's fields) is in `image-<n>.xmp` beside it,
 * read back by exiftool, and listed in the task's `pictor.json`; the verdict is recorded.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { C2paVerifier } from '../../../electron/core/content-credentials/c2pa-verifier';
import { DIGITAL_SOURCE_TYPE } from '../../../electron/core/gallery/metadata/xmp-packet';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import { TEST_CA_PEM, c2paFixture } from '../../support/c2pa-hostile';
import { expectExit, onlyTask, useCliWorlds } from '../cli/cli-harness';
import { exiftool } from '../../unit/core/gallery/metadata/meta-helpers';

const newWorld = useCliWorlds();

const SIGNED = [
  { name: 'signed.png', format: 'png' },
  { name: 'signed.jpg', format: 'jpeg' },
  { name: 'signed.webp', format: 'webp' },
  { name: 'signed-split.jpg', format: 'jpeg' },
] as const;

describe('pictor generate, from a service that signs its images', () => {
  it('saves each signed image as it came and puts its XMP beside it', async () => {
    const pictures = SIGNED.map(({ name }) => c2paFixture(name));
    const world = await newWorld({
      durationMs: 200,
      pictures,
      outcome: () => ({ kind: 'completed', images: pictures.length }),
    });
    const prompt = 'Harbour lights — מגדלור 🌊 <fog & rain>';
    const run = await world.run(['generate', '--prompt', prompt, '--size', '96x64', '--json']);
    expectExit(run, 0);
    const task = onlyTask(run);
    expect(task.images).toHaveLength(SIGNED.length);
    const verifier = new C2paVerifier({ trustAnchors: await readFile(TEST_CA_PEM, 'utf8') });
    try {
      for (const [position, image] of task.images.entries()) {
        const sent = pictures[position]!;
        const path = image.path!;
        // Byte-identical: the service's signature still holds.
        expect((await readFile(path)).equals(sent), path).toBe(true);
        await expect(
          verifier.verify({ file: path, format: SIGNED[position]!.format }),
        ).resolves.toMatchObject({ state: 'valid', trusted: true });
        // The CLI verified against the shipped list, which does not hold the test CA.
        expect(image.contentCredentials).toEqual({
          state: 'valid',
          signer: 'Pictor Test Signer',
          generator: 'Pictor Test Image Service 1.0',
          trusted: false,
          aiGenerated: true,
        });
        expect(image.xmpPath).toBe(join(dirname(path), `image-${position + 1}.xmp`));
        const tags = await exiftool(image.xmpPath!);
        expect(tags['XMP-dc:Description']).toBe(prompt);
        expect(tags['XMP-iptcExt:DigitalSourceType']).toBe(DIGITAL_SOURCE_TYPE);
        expect(tags).toMatchObject({
          'XMP-pictor:Size': '96x64',
          'XMP-pictor:ImageIndex': position,
          'XMP-pictor:LocalId': task.localId,
          'XMP-pictor:Service': new URL(world.service.baseUrl).origin,
        });
      }
    } finally {
      await verifier.dispose();
    }
    // `pictor info` reads the prompt from the sidecar and verifies the credentials.
    const signed = task.images[0]!.path!;
    const info = await world.run(['info', '--json', signed]);
    expectExit(info, 0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      file: signed,
      format: 'png',
      xmp: 'sidecar',
      xmpPath: task.images[0]!.xmpPath,
      provenance: { prompt, localId: task.localId, imageIndex: 0 },
      contentCredentials: { state: 'valid', signer: 'Pictor Test Signer', trusted: false },
    });
    const human = await world.run(['info', signed]);
    expectExit(human, 0);
    expect(human.stdout).toContain(`Prompt: ${prompt}`);
    expect(human.stdout).toContain(
      'Content Credentials: Signed by Pictor Test Signer, AI-generated. The file is exactly as it was signed, but the signer is not on the list Pictor trusts',
    );
    const folder = dirname(task.images[0]!.path!);
    const sidecar = parseSidecar(await readFile(join(folder, 'pictor.json'), 'utf8'));
    if (!sidecar.ok) throw new Error(sidecar.reason);
    expect(sidecar.record.images.map((image) => image.xmpFile?.split('/').pop())).toEqual(
      SIGNED.map((_, position) => `image-${position + 1}.xmp`),
    );
  });

  it('still embeds the XMP of an image without Content Credentials, with nothing beside it', async () => {
    const world = await newWorld({ durationMs: 200 });
    const run = await world.run(['generate', '--prompt', 'plain', '--size', '40x30', '--json']);
    expectExit(run, 0);
    const [image] = onlyTask(run).images;
    expect(image?.xmpPath).toBeNull();
    expect(image?.contentCredentials).toEqual({ state: 'none' });
    expect((await exiftool(image!.path!))['XMP-dc:Description']).toBe('plain');
    const info = await world.run(['info', '--json', image!.path!]);
    expect(JSON.parse(info.stdout)).toMatchObject({
      xmp: 'image',
      provenance: { prompt: 'plain' },
      contentCredentials: { state: 'none' },
    });
  });

  it('info refuses a file that is not an image, and a missing one', async () => {
    const world = await newWorld({ durationMs: 200 });
    await writeFile(join(world.dataDir, 'notes.png'), 'not a picture');
    const notImage = await world.run(['info', join(world.dataDir, 'notes.png')]);
    expect(notImage.code).toBe(1);
    expect(notImage.stderr).toContain('not a PNG, JPEG or WebP image');
    const missing = await world.run(['info', join(world.dataDir, 'nothing.png')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('could not be read (ENOENT)');
  });
});
