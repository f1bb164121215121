import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectState, useDownloadFixture } from './download-fixture';
import { makeImage, serve, serveChunked } from '../../../support/gallery-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';

const f = useDownloadFixture();

/** A PNG whose header claims `width`×`height` (CRC fixed) in front of a tiny real image. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await makeImage('png', 4, 4));
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

/** The start of an ISO media file (AVIF, HEIC) of `brand`, with a C2PA-like box after it. */
function isoMedia(brand: string): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write(`ftyp${brand}`, 4, 'latin1');
  ftyp.write(`mif1${brand}`, 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.from('\0\0\0\x10uuid c2pa jumb', 'latin1')]);
}

describe('refusing what is not an acceptable image', () => {
  it.each([
    [
      'an HTML page served as image/png',
      '<!DOCTYPE html><html><body>Not found</body></html>',
      /an HTML page/,
    ],
    [
      'an SVG',
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>',
      /an SVG/,
    ],
    ['zero bytes', '', /an empty file/],
    // Formats a service could sign with C2PA but Pictor does not accept: refused, never saved.
    ['an AVIF', isoMedia('avif'), /an AVIF, HEIC or video file/],
    ['a HEIC', isoMedia('heic'), /an AVIF, HEIC or video file/],
    ['JSON', '{"error":"nope"}', /a JSON document/],
  ])('%s', async (_name, body, message) => {
    const outcome = expectState(
      (await f.download(f.server.route(`/bad-${_name.length}`, serve(body)))).outcome,
      'invalid',
    );
    expect(outcome.error).toMatch(message);
  });

  it('a GIF', async () => {
    const gif = await makeImage('gif', 20, 20);
    const outcome = expectState(
      (await f.download(f.server.route('/anim.gif', serve(gif, 'image/gif')))).outcome,
      'invalid',
    );
    expect(outcome.error).toMatch(/a GIF/);
  });

  it('a truncated PNG (valid header, body cut short, Content-Length matching)', async () => {
    const cut = f.png.subarray(0, Math.floor(f.png.length * 0.6));
    const outcome = expectState(
      (await f.download(f.server.route('/cut.png', serve(cut)))).outcome,
      'invalid',
    );
    expect(outcome.error).toMatch(/damaged|incomplete/);
  });

  it('a truncated JPEG', async () => {
    const jpeg = await makeImage('jpeg', 400, 400);
    const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.5));
    expectState((await f.download(f.server.route('/cut.jpg', serve(cut)))).outcome, 'invalid');
  });

  it('a decompression bomb: a tiny PNG claiming 30000×30000 pixels', async () => {
    const bomb = await pngClaiming(30_000, 30_000);
    expect(bomb.length).toBeLessThan(1_000);
    const outcome = expectState(
      (await f.download(f.server.route('/bomb.png', serve(bomb)))).outcome,
      'invalid',
    );
    expect(outcome.error).toMatch(/30000×30000 pixels, more than the 100,000,000 pixels/);
  });

  it('an image over maxPixels', async () => {
    const { intake: strictIntake } = galleryOnServer(f.root, { maxPixels: 10_000 });
    const outcome = (
      await f.download(f.server.route('/many-pixels.png', serve(f.png)), { intake: strictIntake })
    ).outcome;
    expect(expectState(outcome, 'invalid').error).toMatch(/640×480/);
  });

  it('a Content-Length over the cap, before reading the body', async () => {
    const { intake: cappedIntake } = galleryOnServer(f.root, { maxImageBytes: 10_000 });
    const outcome = (
      await f.download(f.server.route('/big-declared.png', serve(f.png)), { intake: cappedIntake })
    ).outcome;
    expect(expectState(outcome, 'invalid').error).toMatch(/larger than the 9\.8 KiB/);
  });

  it('a streamed body over the cap without Content-Length', async () => {
    const { intake: cappedIntake } = galleryOnServer(f.root, { maxImageBytes: 10_000 });
    const outcome = (
      await f.download(f.server.route('/big-streamed.png', serveChunked(f.png, 1024)), {
        intake: cappedIntake,
      })
    ).outcome;
    expect(expectState(outcome, 'invalid').error).toMatch(/larger than/);
  });

  it('a record without a URL for the image', async () => {
    expect(expectState((await f.download(null)).outcome, 'invalid').error).toMatch(/no address/);
  });

  it('an unexpected status such as 204 or 400', async () => {
    const url = f.server.route('/no-content', (_req, res) => res.writeHead(204).end());
    expectState((await f.download(url)).outcome, 'invalid');
    const bad = f.server.route('/bad-request', (_req, res) => res.writeHead(400).end('bad'));
    expect(expectState((await f.download(bad)).outcome, 'invalid').error).toMatch(/answered 400/);
  });
});
