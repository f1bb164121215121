/**
 * Images a service sends inline (a `data:` URL or `b64_json` in place of an address), through
 * the real core against the demo service on loopback: saved to the gallery like a download (its
 * pixels, its metadata), never fetched from an address, and the base64 text nowhere Pictor
 * keeps or says anything (the history, the sidecar, the log). What the strict decoder refuses
 * leaves a sentence and no file.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { DemoInlineResults } from '../../../electron/demo-service/types';
import type { ProviderId } from '../../../shared/domain/providers';
import type { Logger } from '../../../electron/ports/logger';
import { filesUnder } from '../../support/files';
import { UNTIL } from '../../support/waits';
import { chunksOf } from '../../support/png-chunks';
import { providerRig, type ProviderRig } from './provider-harness';
import { submitOne, untilAccepted } from './provider-scenarios';

/** Every line the core logged, with its fields, as text. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (message: string, fields?: unknown): void => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { logger: { debug: record, info: record, warn: record, error: record }, lines };
}

/** The bytes the demo serves for the task's first image (its address still works). */
async function servedImage(rig: ProviderRig, taskId: string): Promise<Buffer> {
  const task = rig.service.tasks().find((entry) => entry.id === taskId);
  const url = task?.imageUrls[0];
  if (!url) throw new Error(`The demo has no image for ${taskId}.`);
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}

/** What Pictor keeps about the task on disk: the history database (and its WAL), the sidecar. */
function keptText(rig: ProviderRig, record: TaskRecord): string {
  const history = join(rig.dir, 'data', 'history.sqlite');
  const files = [
    history,
    `${history}-wal`,
    join(rig.dir, 'gallery', record.folder ?? '', 'pictor.json'),
  ];
  return files
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

async function pixels(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).removeAlpha().raw().toBuffer();
}

const PATHS: readonly [ProviderId, DemoInlineResults][] = [
  ['pictor', 'b64-json'],
  ['pictor', 'data-url'],
  ['fal', 'data-url'],
];

describe.each(PATHS)('%s answering images inline as %s', (provider, inlineResults) => {
  it('saves a real PNG to the gallery with its metadata, and keeps no base64 anywhere', async () => {
    const { logger, lines } = capturingLogger();
    const rig = await providerRig(provider, { inlineResults }, {}, { logger });
    const prompt = 'a lighthouse sent inline';
    const localId = await submitOne(rig, prompt);
    await rig.settle([localId]);
    const record = rig.stored(localId);
    expect(record.status).toBe('completed');
    const [image] = record.images;
    expect(image).toMatchObject({ state: 'saved', mime: 'image/png', width: 256, height: 256 });

    // Nothing was fetched from an address: the bytes came in the answer.
    expect(rig.service.log.downloads).toEqual([]);
    const served = await servedImage(rig, record.taskId ?? '');
    const sha = createHash('sha256').update(served).digest('hex');
    expect(image?.url).toBe(`inline:${sha}`);

    const saved = readFileSync(join(rig.dir, 'gallery', image?.file ?? ''));
    expect(await pixels(saved)).toEqual(await pixels(served));
    const xmp = chunksOf(saved).find(
      (chunk) => chunk.type === 'iTXt' && chunk.data.includes('XML:com.adobe.xmp'),
    );
    expect(xmp?.data.toString('utf8')).toContain(prompt);
    expect(image?.thumbnail).toBeDefined();

    // The spool served and is gone; no base64 text was kept, written or logged.
    const folder = join(rig.dir, 'gallery', record.folder ?? '');
    await vi.waitFor(() => expect(existsSync(join(folder, '.inline'))).toBe(false), UNTIL);
    const text = served.toString('base64');
    const samples = [text.slice(64, 128), text.slice(-96, -32)];
    const kept = keptText(rig, record);
    for (const sample of samples) {
      expect(kept).not.toContain(sample);
      expect(lines.join('\n')).not.toContain(sample);
      expect(JSON.stringify(record)).not.toContain(sample);
    }
  });
});

/** The sentence an inline image Pictor refused carries. */
function refused(why: string, limit = '64 MiB') {
  return sentence('error.service.inlineImageRefused', { why, limit });
}

/** A new pictor task, accepted, whose polls are answered completed with `entry` as its image. */
async function completedWith(rig: ProviderRig, prompt: string, entry: unknown): Promise<string> {
  const localId = await submitOne(rig, prompt);
  const { taskId } = await untilAccepted(rig, localId);
  rig.service.addFault({
    route: 'poll',
    taskId: taskId ?? '',
    effect: {
      type: 'body',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ id: taskId, status: 'completed', output: { data: [entry] } }),
    },
  });
  return localId;
}

/** A pictor task whose completed answer is `entry` as its one image; its settled record. */
async function answeredWith(rig: ProviderRig, entry: unknown): Promise<TaskRecord> {
  const localId = await completedWith(rig, 'a scripted answer', entry);
  await rig.settle([localId]);
  return rig.stored(localId);
}

/** The images and spool files under the gallery (thumbnails, sidecars and temp files aside). */
async function imageFiles(rig: ProviderRig): Promise<string[]> {
  const files = await filesUnder(join(rig.dir, 'gallery'));
  return files
    .filter((file) => /image-\d+\.(png|jpg|webp)$/.test(file) && !/[\\/]\.thumbs[\\/]/.test(file))
    .concat(files.filter((file) => /[\\/]\.inline[\\/]/.test(file)));
}

/** No image and no spool file is left (a refused image's spool goes just after its record). */
async function expectNoImageFiles(rig: ProviderRig): Promise<void> {
  await vi.waitFor(async () => expect(await imageFiles(rig)).toEqual([]), UNTIL);
}

async function jpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 90, b: 200 } },
  })
    .jpeg()
    .toBuffer();
}

describe('hostile inline images', () => {
  it('are refused with a sentence each, and nothing is saved', async () => {
    const rig = await providerRig('pictor');
    const good = (await jpeg()).toString('base64');
    const cases: [unknown, string][] = [
      [{ b64_json: `${good.slice(0, 40)}!${good.slice(41)}` }, 'alphabet'],
      [{ b64_json: `${good.replace(/=+$/, '')}${good.endsWith('=') ? '' : 'QQ'}` }, 'padding'],
      [
        { url: `data:text/html;base64,${Buffer.from('<html>hi</html>').toString('base64')}` },
        'type',
      ],
      [{ url: `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}` }, 'type'],
      [{ url: `data:image/png,${good}` }, 'notBase64'],
    ];
    for (const [entry, why] of cases) {
      const record = await answeredWith(rig, entry);
      expect(record.status, why).toBe('completed');
      expect(record.images[0], why).toMatchObject({ state: 'invalid', url: null });
      expect(record.images[0]?.errorSentence, why).toEqual(refused(why));
      expect(JSON.stringify(record)).not.toContain(good.slice(60, 120));
    }
    await expectNoImageFiles(rig);
  });

  it('over the gallery’s cap is refused, and an answer too large to read is not read', async () => {
    const cap = 2_000;
    const rig = await providerRig('pictor', {}, {}, { maxImageBytes: cap });
    const big = Buffer.alloc(cap + 1, 7).toString('base64');
    const record = await answeredWith(rig, { b64_json: big });
    expect(record.images[0]?.errorSentence).toEqual(refused('tooBig', '2 KiB'));

    // Far beyond one image's base64 and the usual megabyte: the answer itself is refused.
    const huge = 'A'.repeat(3 * 1024 * 1024);
    const localId = await completedWith(rig, 'a huge answer', { b64_json: huge });
    await rig.drive(() => rig.stored(localId).error !== null);
    const waiting = rig.stored(localId);
    expect(waiting.status).toBe('processing');
    expect(waiting.error?.detail).toMatch(/larger than \d+ bytes/);
    expect(JSON.stringify(waiting)).not.toContain(huge.slice(0, 64));
    await expectNoImageFiles(rig);
  });

  it('saying PNG with JPEG bytes is saved as the JPEG it is, as a download would be', async () => {
    const rig = await providerRig('pictor');
    const bytes = await jpeg();
    const record = await answeredWith(rig, {
      url: `data:image/png;base64,${bytes.toString('base64')}`,
    });
    expect(record.images[0]).toMatchObject({ state: 'saved', mime: 'image/jpeg', width: 64 });
    expect(record.images[0]?.file).toMatch(/image-1\.jpg$/);
    // The spool went once the image was saved: the one file left is the image.
    // One look, kept: a second could meet the spool's folder as it is being removed.
    const [file] = await vi.waitFor(async () => {
      const found = await imageFiles(rig);
      expect(found).toHaveLength(1);
      return found;
    }, UNTIL);
    expect(dirname(file ?? '')).not.toMatch(/\.inline$/);
  });

  it('that are not images at all, under an image type, are refused by the download’s sniffing', async () => {
    const rig = await providerRig('pictor');
    const html = Buffer.from('<!doctype html><html><body>not an image</body></html>');
    const record = await answeredWith(rig, {
      url: `data:image/png;base64,${html.toString('base64')}`,
    });
    expect(record.images[0]).toMatchObject({ state: 'invalid' });
    expect(record.images[0]?.errorSentence).toEqual(
      sentence('error.gallery.notAnImage', { kind: 'html' }),
    );
    await expectNoImageFiles(rig);
  });

  it('that cannot be kept on disk leave the task processing, asked again, then saved', async () => {
    const rig = await providerRig('pictor', { inlineResults: 'b64-json' });
    const localId = await submitOne(rig, 'a blocked spool');
    const record = await untilAccepted(rig, localId);
    // A file where the spool folder goes: the bytes cannot be kept, so the task is not completed.
    const folder = join(rig.dir, 'gallery', rig.core.gallery.folderFor(record));
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, '.inline'), 'in the way');
    await rig.drive(
      () => rig.stored(localId).error?.sentence?.key === 'error.gallery.inlineNotKept',
    );
    expect(rig.stored(localId)).toMatchObject({ status: 'processing', images: [] });
    await rm(join(folder, '.inline'));
    await rig.settle([localId]);
    expect(rig.stored(localId).images[0]).toMatchObject({ state: 'saved', mime: 'image/png' });
  });
});
