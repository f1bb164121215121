/**
 * A hostile image host's body that is no image, shaped to make the description of what it was
 * (images/image-sniff.ts describeNonImage: "an HTML page", "an SVG"…) backtrack: a run of XML
 * comments with no `<svg` after them. The SVG pattern grouped comments with a lazy `[\s\S]*?`
 * inside a `*`, so it tried every way of grouping the run: 24 empty comments cost 1.5 s of the
 * main thread, 30 more than a minute, the 1 KB it looks at for ever (a hung window). Each body is
 * refused as before, described in linear time, through the real downloader over a raw TCP host
 * on loopback; what is measured is the main thread's CPU while the image was asked for.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageIntake } from '../../../electron/core/download/image-intake';
import { makeRecord } from '../../support/gallery-helpers';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { startRawHost, type RawHost } from './raw-hosts';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The main thread's CPU one refused body may cost, request and all (tens of ms when linear). */
const MAX_CPU_MS = 1_000;

let host: RawHost;
let dir: string;
let intake: ImageIntake;

beforeAll(async () => {
  host = await startRawHost();
  dir = await tempFolder('non-image');
  const made = galleryOnServer(join(dir, 'gallery'), { downloadTimeoutMs: 60_000 });
  await made.gallery.init();
  intake = made.intake;
});

afterAll(async () => {
  await host.close();
  await removeFolder(dir);
});

let served = 0;

/** Asks for an "image" whose body is `text`; the outcome and the main thread's CPU it cost. */
async function bodyOf(text: string) {
  served += 1;
  const body = Buffer.from(text, 'utf8');
  const url = host.route(`/shape/${served}`, () => ({
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(body.length) },
    body: [body],
  }));
  const before = process.threadCpuUsage();
  const outcome = await intake.downloadImage(makeRecord([url]), 0, host.origin);
  const spent = process.threadCpuUsage(before);
  return { outcome, cpuMs: (spent.user + spent.system) / 1000 };
}

const kindOf = (kind: string) => ({
  state: 'invalid',
  errorSentence: { key: 'error.gallery.notAnImage', params: { kind } },
});

describe('a body that is no image, built to make its description backtrack', () => {
  it.each([
    ['30 empty comments, then a letter', `${'<!---->'.repeat(30)}x`, 'text'],
    [
      'an XML declaration, 30 comments, then a tag',
      `<?xml version="1.0"?>${'<!---->'.repeat(30)}<g>`,
      'xml',
    ],
    ['30 comments with spaces between, then a letter', `${'<!-- -->\n'.repeat(30)}x`, 'text'],
    ['comments filling the 1 KB looked at', `${'<!---->'.repeat(146)}x`, 'text'],
  ])(
    '%s: refused, described in linear time',
    async (_name, text, kind) => {
      const { outcome, cpuMs } = await bodyOf(text);
      expect(outcome).toMatchObject(kindOf(kind));
      expect(cpuMs).toBeLessThan(MAX_CPU_MS);
    },
    300_000,
  );

  it('an SVG behind comments and a doctype is still described as one', async () => {
    const svg = `<?xml version="1.0"?>\n<!-- a -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN">\n<svg xmlns="http://www.w3.org/2000/svg"/>`;
    const { outcome } = await bodyOf(svg);
    expect(outcome).toMatchObject(kindOf('svg'));
  });
});
