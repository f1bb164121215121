/**
 * A service that signs its images with C2PA Content Credentials, through the real CLI and the
 * real download path: the demo service, started as `npm run demo-service` starts it, serves the
 * signed fixtures as they are (`--image-file`). Each saved image is byte-identical to what the
 * service sent, so it still validates as the service signed it; its XMP (the prompt and Pictor's
 * fields) is in `image-<n>.xmp` beside it, read back by exiftool, and listed in the task's
 * `pictor.json`; the verdict is recorded and `pictor info` says it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { C2paVerifier } from '../../../electron/core/content-credentials/c2pa-verifier';
import { DIGITAL_SOURCE_TYPE } from '../../../electron/core/gallery/metadata/xmp-packet';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import {
  C2PA_FIXTURES,
  IRREGULAR_JPEG_STORES,
  TEST_CA_PEM,
  c2paFixture,
} from '../../support/c2pa-hostile';
import { SIGNED_VERDICT_UNTRUSTED } from '../../support/c2pa-hostile-cases';
import { startDemoProcess, type DemoProcess } from '../../e2e/harness/demo-process';
import { expectExit, onlyTask, useCliWorlds } from '../cli/cli-harness';
import { runCli, type CliRun } from '../cli/run-cli';
import { exiftool } from '../../support/exiftool';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const newWorld = useCliWorlds();

const SIGNED = [
  { name: 'signed.png', format: 'png' },
  { name: 'signed.jpg', format: 'jpeg' },
  { name: 'signed.webp', format: 'webp' },
  { name: 'signed-split.jpg', format: 'jpeg' },
] as const;

describe('pictor generate, from a service that signs its images', () => {
  let demo: DemoProcess;
  let dirs: string[];
  const pictor = (args: string[]): Promise<CliRun> =>
    runCli(['--data-dir', dirs[0]!, ...args], { key: 'demo', home: dirs[1]!, timeoutMs: 60_000 });

  beforeAll(async () => {
    demo = await startDemoProcess({
      durationMs: 200,
      imagesPerTask: SIGNED.length,
      imageFiles: SIGNED.map(({ name }) => join(C2PA_FIXTURES, name)),
    });
    dirs = [await tempFolder('signed-data'), await tempFolder('signed-home')];
  });
  afterAll(async () => {
    await demo.stop();
    for (const dir of dirs) await removeFolder(dir);
  });

  it('saves each signed image as it came and puts its XMP beside it', async () => {
    const pictures = SIGNED.map(({ name }) => c2paFixture(name));
    const prompt = 'Harbour lights — מגדלור 🌊 <fog & rain>';
    const run = await pictor([
      'generate',
      ...['--base-url', demo.url, '--poll-interval', '0.2'],
      ...['--prompt', prompt, '--size', '96x64', '--json'],
    ]);
    expectExit(run, 0);
    const task = onlyTask(run);
    expect(task.images).toHaveLength(SIGNED.length);
    // The service sent each file as it is, with the type its bytes say.
    const downloads = (await demo.log()).downloads;
    expect(downloads.map((entry) => entry.status)).toEqual(SIGNED.map(() => 200));
    const verifier = new C2paVerifier({ trustAnchors: await readFile(TEST_CA_PEM, 'utf8') });
    try {
      for (const [position, image] of task.images.entries()) {
        const sent = pictures[position]!;
        const path = image.path!;
        // Byte-identical: the service's signature still holds.
        expect((await readFile(path)).equals(sent), path).toBe(true);
        await expect(
          verifier.verify({ bytes: await readFile(path), format: SIGNED[position]!.format }),
        ).resolves.toMatchObject({ state: 'valid', trusted: true });
        // The CLI verified against the shipped list, which does not hold the test CA.
        expect(image.contentCredentials).toEqual(SIGNED_VERDICT_UNTRUSTED);
        expect(image.xmpPath).toBe(join(dirname(path), `image-${position + 1}.xmp`));
        const tags = await exiftool(image.xmpPath!);
        expect(tags['XMP-dc:Description']).toBe(prompt);
        expect(tags['XMP-iptcExt:DigitalSourceType']).toBe(DIGITAL_SOURCE_TYPE);
        expect(tags).toMatchObject({
          'XMP-pictor:Size': '96x64',
          'XMP-pictor:ImageIndex': position,
          'XMP-pictor:LocalId': task.localId,
          'XMP-pictor:Service': new URL(demo.url).origin,
        });
      }
    } finally {
      await verifier.dispose();
    }
    // `pictor info` reads the prompt from the sidecar and verifies the credentials.
    const signed = task.images[0]!.path!;
    const info = await pictor(['info', '--json', signed]);
    expectExit(info, 0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      file: signed,
      format: 'png',
      xmp: 'sidecar',
      xmpPath: task.images[0]!.xmpPath,
      provenance: { prompt, localId: task.localId, imageIndex: 0 },
      contentCredentials: { state: 'valid', signer: 'Pictor Test Signer', trusted: false },
    });
    const human = await pictor(['info', signed]);
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
});

describe('pictor generate, from a service whose JPEG store is irregular', () => {
  let demo: DemoProcess;
  let dirs: string[];
  const made = IRREGULAR_JPEG_STORES.map(([name, make]) => ({ name, bytes: make() }));

  beforeAll(async () => {
    dirs = [
      await tempFolder('irregular-data'),
      await tempFolder('irregular-home'),
      await tempFolder('irregular-files'),
    ];
    const files = made.map((_, position) => join(dirs[2]!, `irregular-${position}.jpg`));
    for (const [position, file] of files.entries()) await writeFile(file, made[position]!.bytes);
    demo = await startDemoProcess({
      durationMs: 200,
      imagesPerTask: files.length,
      imageFiles: files,
    });
  });
  afterAll(async () => {
    await demo.stop();
    for (const dir of dirs) await removeFolder(dir);
  });

  it('saves a JPEG whose APP11 store is out of order, repeated or unlabelled as it came', async () => {
    const run = await runCli(
      [
        ...['--data-dir', dirs[0]!, 'generate', '--base-url', demo.url, '--poll-interval', '0.2'],
        ...['--prompt', 'irregular', '--size', '96x64', '--json'],
      ],
      { key: 'demo', home: dirs[1]!, timeoutMs: 60_000 },
    );
    expectExit(run, 0);
    const task = onlyTask(run);
    expect(task.images).toHaveLength(made.length);
    for (const [position, image] of task.images.entries()) {
      const { name, bytes } = made[position]!;
      // Never edited: whatever a verifier says of the store, the file is the service's.
      expect((await readFile(image.path!)).equals(bytes), name).toBe(true);
      expect(image.xmpPath, name).toBe(join(dirname(image.path!), `image-${position + 1}.xmp`));
      expect((await exiftool(image.xmpPath!))['XMP-dc:Description'], name).toBe('irregular');
    }
  });
});

describe('pictor generate and info, with images that carry no credentials', () => {
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
