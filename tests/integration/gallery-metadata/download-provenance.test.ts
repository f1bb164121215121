/**
 * The gallery's download pipeline over real HTTP on loopback writes each image's provenance
 * into the saved file: the pixels are those the host sent, exiftool reads the fields, and
 * nothing secret from the service address (user name, key, path, query) is in the file. A
 * crafted image (its structure lies, yet it decodes) is saved exactly as it came, with a logged
 * reason that names no secret.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogFields, Logger } from '../../../electron/ports/logger';
import { DIGITAL_SOURCE_TYPE } from '../../../electron/core/gallery/metadata/xmp-packet';
import { makeRecord, serve, serveChunked, tempFiles } from '../../support/gallery-helpers';
import {
  ENCODINGS,
  decodedPixels,
  makeEncoded,
} from '../../unit/core/gallery/metadata/meta-helpers';
import { EXIFTOOL, exiftool } from '../../support/exiftool';
import {
  buildPng,
  c2paSuperbox,
  pngChunks,
  provenancePacket,
  withXmp,
} from '../../support/c2pa-hostile';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { needing } from '../../support/tools';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { galleryPerTest } from '../../support/gallery-per-test';

const SECRETS = ['sk-live-SECRET-4242', 'hunter2', 'carol', '/v1/private', 'frag-secret'];

let logged: Array<{ message: string; fields?: LogFields }>;
const fixture = galleryPerTest(() => {
  logged = [];
  const record = (message: string, fields?: LogFields) => void logged.push({ message, fields });
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  return { logger, downloadTimeoutMs: 10_000, imageMetadata: { appVersion: '4.5.6' } };
});

afterEach(async () => {
  expect(await tempFiles(fixture.root)).toEqual([]);
});

/** The service address a user might paste, with a key in every place one could hide. */
function endpoint(): string {
  const { port } = new URL(fixture.server.baseUrl);
  return `http://carol:sk-live-SECRET-4242@127.0.0.1:${port}/v1/private?key=hunter2#frag-secret`;
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe.each(ENCODINGS)('a downloaded $name', (encoding) => {
  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'is saved with its provenance, its pixels untouched, no secret in it'),
    async () => {
      const body = await makeEncoded(encoding, 120, 80, encoding.kind !== 'jpeg');
      const url = fixture.server.route(`/img-${encoding.name.replace(' ', '-')}`, serve(body));
      const record = makeRecord([url], {
        endpoint: endpoint(),
        request: {
          prompt: 'A lighthouse & a <storm> ]]> 🌊 מגדלור',
          model: 'asked-model',
          size: '120x80',
          quality: 'medium',
        },
      });
      const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
      if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
      const file = fixture.gallery.resolve(outcome.file);
      const saved = await readFile(file);
      expect(outcome.bytes).toBe(saved.length);
      expect(saved.length).toBeGreaterThan(body.length);
      expect((await decodedPixels(saved)).data.equals((await decodedPixels(body)).data)).toBe(true);
      expect(await sharp(saved).metadata()).toMatchObject({ width: 120, height: 80 });

      const tags = await exiftool(file);
      expect(tags['XMP-iptcExt:DigitalSourceType']).toBe(DIGITAL_SOURCE_TYPE);
      expect(tags['XMP-dc:Description']).toBe(record.request.prompt);
      expect(tags).toMatchObject({
        'XMP-xmp:CreatorTool': 'Pictor 4.5.6',
        'XMP-pictor:Model': 'asked-model',
        'XMP-pictor:Size': '120x80',
        'XMP-pictor:Quality': 'medium',
        'XMP-pictor:TaskId': record.taskId,
        'XMP-pictor:Service': fixture.server.baseUrl,
      });
      expect(
        new Date(String(tags['XMP-xmp:CreateDate']).replace(/^(\d+):(\d+):/, '$1-$2-')).getTime(),
      ).toBe(record.createdAt);
      expectNoSecret(JSON.stringify(tags));
      expectNoSecret(saved.toString('latin1'));
      expectNoSecret(JSON.stringify(logged));
    },
  );
});

it.skipIf(!EXIFTOOL.path)(
  needing(EXIFTOOL, 'names the model the service reported when the record keeps one'),
  async () => {
    const body = await makeEncoded(ENCODINGS[0]!, 20, 20);
    const url = fixture.server.route('/reported.png', serve(body));
    const record = { ...makeRecord([url]), reportedModel: 'served-model-2' };
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    expect((await exiftool(fixture.gallery.resolve(outcome.file)))['XMP-pictor:Model']).toBe(
      'served-model-2',
    );
  },
);

describe('a PNG’s provenance, written as it downloads', () => {
  const WRITTEN = 'Image metadata written as it downloaded.';

  it('is the file the metadata step would make of the body, byte for byte', async () => {
    const body = await makeEncoded(ENCODINGS[0]!, 300, 200);
    const record = makeRecord([fixture.server.route('/as-it-comes.png', serve(body))], {
      endpoint: endpoint(),
    });
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    const saved = await readFile(fixture.gallery.resolve(outcome.file));
    const edited = await embedProvenanceInBuffer(body, 'png', provenanceOf(record, 0, '4.5.6'));
    expect(saved.equals(edited)).toBe(true);
    expect(outcome.bytes).toBe(saved.length);
    expect(logged.some((entry) => entry.message === WRITTEN)).toBe(true);
  });

  it('is the same when the body comes 7 bytes at a time, and leaves nothing when it is cut short', async () => {
    const body = await makeEncoded(ENCODINGS[0]!, 90, 60);
    const record = makeRecord([fixture.server.route('/in-pieces.png', serveChunked(body, 7))], {
      endpoint: endpoint(),
    });
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    const edited = await embedProvenanceInBuffer(body, 'png', provenanceOf(record, 0, '4.5.6'));
    expect((await readFile(fixture.gallery.resolve(outcome.file))).equals(edited)).toBe(true);

    const cut = makeRecord(
      [
        fixture.server.route('/cut.png', (_req, res) => {
          res.writeHead(200, {
            'Content-Type': 'image/png',
            'Content-Length': String(body.length),
          });
          res.write(body.subarray(0, body.length >> 1), () => res.destroy());
        }),
      ],
      { endpoint: endpoint() },
    );
    const failed = await fixture.intake.downloadImage(cut, 0, fixture.server.baseUrl);
    expect(failed.state).not.toBe('saved');
    // afterEach: no temp file is left, the edited copy's included.
  });

  it('is dropped when the edited copy would pass the size cap: the body kept as it came, the reason logged', async () => {
    const body = await makeEncoded(ENCODINGS[0]!, 90, 60);
    const reasons: Array<{ message: string; fields?: LogFields }> = [];
    const note = (message: string, fields?: LogFields) => void reasons.push({ message, fields });
    const { intake: capped } = galleryOnServer(fixture.root, {
      logger: { debug: note, info: note, warn: note, error: note },
      downloadTimeoutMs: 10_000,
      imageMetadata: { appVersion: '4.5.6' },
      // The body fits; the body with its metadata does not.
      maxImageBytes: body.length + 100,
    });
    const record = makeRecord([fixture.server.route('/at-the-cap.png', serveChunked(body, 1000))], {
      endpoint: endpoint(),
    });
    const outcome = await capped.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    expect((await readFile(fixture.gallery.resolve(outcome.file))).equals(body)).toBe(true);
    expect(reasons.some((entry) => entry.message === WRITTEN)).toBe(false);
    const warning = reasons.find((entry) => entry.message === 'Image saved without its metadata.');
    expect(warning?.fields).toMatchObject({ reason: expect.stringMatching(/size limit/) });
  });

  it('is not used for a PNG with Content Credentials: the body kept as it came, its XMP beside it', async () => {
    const png = await makeEncoded(ENCODINGS[0]!, 60, 40);
    const [ihdr, ...rest] = pngChunks(png);
    const store = { type: 'caBX', data: c2paSuperbox(Buffer.alloc(32, 1)) };
    const body = buildPng([ihdr!, store, ...rest]);
    const record = makeRecord([fixture.server.route('/signed.png', serve(body))], {
      endpoint: endpoint(),
    });
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    expect((await readFile(fixture.gallery.resolve(outcome.file))).equals(body)).toBe(true);
    expect(outcome.xmpFile).toBeDefined();
    expect(logged.some((entry) => entry.message === WRITTEN)).toBe(false);
  });

  it('is not used for a JPEG or a WebP, whose metadata step is the file edit', async () => {
    for (const encoding of ENCODINGS.slice(1)) {
      const body = await makeEncoded(encoding, 40, 30);
      const route = `/other-${encoding.name.replace(' ', '-')}`;
      const record = makeRecord([fixture.server.route(route, serve(body))], {
        endpoint: endpoint(),
      });
      const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
      if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
      const saved = await readFile(fixture.gallery.resolve(outcome.file));
      const edited = await embedProvenanceInBuffer(
        body,
        encoding.kind,
        provenanceOf(record, 0, '4.5.6'),
      );
      expect(saved.equals(edited), encoding.name).toBe(true);
    }
    expect(logged.some((entry) => entry.message === WRITTEN)).toBe(false);
  });
});

describe('a crafted image that decodes but whose structure lies', () => {
  it('a PNG chunk with a bogus CRC: saved exactly as it came, the reason logged', async () => {
    const png = await makeEncoded(ENCODINGS[0]!, 50, 40);
    const data = Buffer.from('Comment\0planted');
    const chunk = Buffer.alloc(12 + data.length);
    chunk.writeUInt32BE(data.length, 0);
    chunk.write('tEXt', 4, 'latin1');
    data.copy(chunk, 8);
    chunk.writeUInt32BE((crc32(chunk.subarray(4, 8 + data.length)) ^ 1) >>> 0, 8 + data.length);
    const body = Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
    const record = makeRecord([fixture.server.route('/bogus-crc.png', serve(body))], {
      endpoint: endpoint(),
    });
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    expect((await readFile(fixture.gallery.resolve(outcome.file))).equals(body)).toBe(true);
    expect(outcome.bytes).toBe(body.length);
    const warning = logged.find((entry) => entry.message === 'Image saved without its metadata.');
    expect(warning?.fields).toMatchObject({
      format: 'png',
      reason: expect.stringMatching(/checksum/),
    });
    expectNoSecret(JSON.stringify(logged));
  });

  it('a WebP whose RIFF size leaves junk outside it: saved exactly as it came', async () => {
    const webp = await makeEncoded(ENCODINGS[2]!, 50, 40);
    const body = Buffer.concat([webp, Buffer.from('JUNKJUNK')]);
    const record = makeRecord([fixture.server.route('/riff.webp', serve(body, 'image/webp'))]);
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    expect((await readFile(fixture.gallery.resolve(outcome.file))).equals(body)).toBe(true);
    const warning = logged.find((entry) => entry.message === 'Image saved without its metadata.');
    expect(warning?.fields).toMatchObject({
      format: 'webp',
      reason: expect.stringMatching(/size/),
    });
  });
});

/**
 * An image whose Content Credentials are kept online, its XMP naming their address
 * (`dcterms:provenance`, as Adobe's cloud manifests do): that store hashes the file's bytes too,
 * so it is saved exactly as it came (its own XMP kept, with the address) and Pictor's XMP goes
 * beside it; the verdict says the credentials are online, and nothing is fetched.
 */
describe('an image that names a remote manifest store in its XMP', () => {
  const ADDRESS = 'https://cai-manifests.example.com/manifests/urn-uuid-5f37e182';

  async function download(kind: 'png' | 'jpeg' | 'webp') {
    const encoding = { png: 0, jpeg: 1, webp: 3 }[kind];
    const plain = await makeEncoded(ENCODINGS[encoding]!, 48, 32);
    const body = withXmp(kind, plain, provenancePacket(ADDRESS));
    const url = fixture.server.route(
      `/remote-${kind}-${fixture.root.slice(-6)}`,
      serve(body, `image/${kind}`),
    );
    const record = makeRecord([url], { request: { prompt: 'Harbour at night' } });
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    return { body, outcome };
  }

  it.each(['png', 'jpeg', 'webp'] as const)(
    'a %s is saved as it came, its XMP beside it',
    async (kind) => {
      const { body, outcome } = await download(kind);
      expect((await readFile(fixture.gallery.resolve(outcome.file))).equals(body)).toBe(true);
      expect(outcome.xmpFile).toMatch(/image-1\.xmp$/);
      expect(outcome.contentCredentials).toEqual({ state: 'unreadable', remote: true });
    },
  );

  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'exiftool reads the prompt beside it, and the address still in it'),
    async () => {
      const { outcome } = await download('jpeg');
      const beside = await exiftool(fixture.gallery.resolve(outcome.xmpFile!));
      expect(beside['XMP-dc:Description']).toBe('Harbour at night');
      const image = await exiftool(fixture.gallery.resolve(outcome.file));
      expect(image['XMP-dcterms:Provenance']).toBe(ADDRESS);
    },
  );
});
