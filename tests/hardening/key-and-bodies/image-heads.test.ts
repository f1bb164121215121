/**
 * A hostile image host's response head shaped to make the strict response reader's header
 * pattern backtrack (download/http-head-fields.ts): a header value of thousands of spaces or tabs
 * that ends in a byte a value may not hold. The pattern had a lazy value between two runs of
 * optional whitespace, so its refusal tried every split of the run: 2,000 spaces cost 2 s of the
 * main thread, a whole 16 KB head ~20 minutes (the reader runs on the main thread, in the app's
 * main process). Each head is refused, as before, in linear time: what is measured is the main
 * thread's CPU while the image was asked for, over a raw TCP host on loopback.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageIntake } from '../../../electron/core/download/image-intake';
import { makeRecord } from '../../support/gallery-helpers';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { randomPng } from './hostile-bodies';
import { startRawHost, type RawHost } from './raw-hosts';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The main thread's CPU one refused head may cost, request and all (tens of ms when linear). */
const MAX_CPU_MS = 1_000;
/** The outcome's sentence: the head refused, as llhttp would say it. */
const REFUSED_HEADER = { params: { code: 'HPE_INVALID_HEADER_TOKEN' } };
/** What fits in the reader's 16 KB head beside the status line and the other headers. */
const LONGEST_RUN = 15_000;

let host: RawHost;
let dir: string;
let intake: ImageIntake;
let png: Buffer;

beforeAll(async () => {
  host = await startRawHost();
  dir = await tempFolder('image-heads');
  const made = galleryOnServer(join(dir, 'gallery'), { downloadTimeoutMs: 60_000 });
  await made.gallery.init();
  intake = made.intake;
  png = await randomPng(16, 16);
});

afterAll(async () => {
  await host.close();
  await removeFolder(dir);
});

let served = 0;

/** Asks for an image whose head carries `name: value`; the outcome and the CPU it cost. */
async function imageWithHeader(name: string, value: string) {
  served += 1;
  const url = host.route(`/head/${served}`, () => ({
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(png.length), [name]: value },
    body: [png],
  }));
  const before = process.threadCpuUsage();
  const outcome = await intake.downloadImage(makeRecord([url]), 0, host.origin);
  const spent = process.threadCpuUsage(before);
  return { outcome, cpuMs: (spent.user + spent.system) / 1000 };
}

describe('a header value built to make the head reader backtrack', () => {
  it.each([
    ['3,000 spaces, then a control byte', ' '.repeat(3_000) + '\x01'],
    ['3,000 tabs, then NUL', '\t'.repeat(3_000) + '\x00'],
    ['3,000 spaces, a letter, then DEL', ' '.repeat(3_000) + 'x\x7f'],
    ['spaces and tabs mixed, then a control byte', ' \t'.repeat(1_500) + '\x1b'],
  ])(
    '%s: refused in linear time',
    async (_name, value) => {
      const { outcome, cpuMs } = await imageWithHeader('X-Pad', value);
      expect(outcome).toMatchObject({ state: 'retry', errorSentence: REFUSED_HEADER });
      expect(cpuMs).toBeLessThan(MAX_CPU_MS);
    },
    120_000,
  );

  it(`the longest such run a head holds (${LONGEST_RUN} spaces): refused in linear time`, async () => {
    const { outcome, cpuMs } = await imageWithHeader('X-Pad', ' '.repeat(LONGEST_RUN) + 'x\x01');
    expect(outcome).toMatchObject({ state: 'retry', errorSentence: REFUSED_HEADER });
    expect(cpuMs).toBeLessThan(MAX_CPU_MS);
  }, 120_000);
});
