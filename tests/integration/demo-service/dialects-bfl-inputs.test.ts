/**
 * BFL's image models on the demo: bare base64 inputs, the answer derived from the source's pixels
 * (edit tint, fill under a white-edit mask, expand), the limits and refusals, the moderation of
 * an input, and links the demo never fetches.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TestClock } from './helpers';
import { send, startDialect } from './dialect-helpers';
import { pixelsAt, pngOf, sourcePng, whiteMask } from './input-helpers';

const KEY = 'bfl-input-secret';
const ACCOUNTS = [{ account: 'alice', key: KEY }];
const b64 = (bytes: Buffer) => bytes.toString('base64');

async function run(service: DemoService, clock: TestClock, model: string, body: object) {
  const submitted = await send(
    `${service.url}/v1/${model}`,
    { prompt: 'make it warm', ...body },
    { 'x-key': KEY },
  );
  if (submitted.status !== 200) return { submitted, result: null };
  clock.advance(10_000);
  const { polling_url } = submitted.json as { polling_url: string };
  const result = await fetch(polling_url, { headers: { 'x-key': KEY } }).then((r) => r.json());
  return {
    submitted,
    result: result as { status: string; result: { sample: string } | null; details: unknown },
  };
}

describe('BFL image inputs', () => {
  it('edits a base64 source with Kontext: the source tinted, at its size', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const { result } = await run(service, clock, 'flux-kontext-pro', {
      input_image: b64(await sourcePng()),
      safety_tolerance: 2,
      output_format: 'png',
    });
    expect(result?.status).toBe('Ready');
    const out = await pixelsAt(result!.result!.sample);
    expect([out.width, out.height]).toEqual([4, 3]);
    expect(out.at(0, 0)).toEqual([63, 40, 150, 255]);
    expect(out.at(3, 2)).toEqual([(180 * 3 + 255) >> 2, (160 * 3 + 160) >> 2, 150, 255]);
  });

  it('fills under a white-edit mask and copies the rest exactly', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const { result } = await run(service, clock, 'flux-pro-1.0-fill', {
      image: b64(await sourcePng()),
      mask: b64(await whiteMask()),
    });
    const out = await pixelsAt(result!.result!.sample);
    expect(out.at(0, 1)).toEqual([255, 0, 255, 255]);
    expect(out.at(1, 1)).toEqual([60, 80, 200, 255]);
    expect(out.at(3, 2)).toEqual([180, 160, 200, 255]);
  });

  it('expands the canvas with the source placed at (left, top)', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const { result } = await run(service, clock, 'flux-pro-1.0-expand', {
      image: b64(await sourcePng()),
      top: 1,
      bottom: 0,
      left: 2,
      right: 1,
    });
    const out = await pixelsAt(result!.result!.sample);
    expect([out.width, out.height]).toEqual([7, 4]);
    expect(out.at(0, 0)).toEqual([128, 128, 128, 255]);
    expect(out.at(2, 1)).toEqual([0, 0, 200, 255]);
    expect(out.at(5, 3)).toEqual([180, 160, 200, 255]);
  });

  it('refuses safety_tolerance above 2 with an input, a reference Kontext does not take, and a GIF', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const source = b64(await sourcePng());
    const unsafe = await run(service, clock, 'flux-kontext-pro', {
      input_image: source,
      safety_tolerance: 3,
    });
    expect(unsafe.submitted.status).toBe(422);
    expect(JSON.stringify(unsafe.submitted.json)).toContain('safety_tolerance');
    const extra = await run(service, clock, 'flux-kontext-pro', {
      input_image: source,
      input_image_2: source,
    });
    expect([extra.submitted.status, JSON.stringify(extra.submitted.json)]).toEqual([
      422,
      expect.stringContaining('input_image_2'),
    ]);
    const gif = await run(service, clock, 'flux-kontext-pro', {
      input_image: b64(Buffer.from('GIF89a\x01\x00\x01\x00')),
    });
    expect([gif.submitted.status, JSON.stringify(gif.submitted.json)]).toEqual([
      422,
      expect.stringContaining('not a PNG, JPEG or WebP'),
    ]);
    expect(service.tasks()).toEqual([]);
  });

  it('refuses a side over the model limit (from the header) and a mask of another size', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const wide = await pngOf(4097, 1, () => [1, 2, 3, 255]);
    const tooWide = await run(service, clock, 'flux-kontext-pro', { input_image: b64(wide) });
    expect([tooWide.submitted.status, JSON.stringify(tooWide.submitted.json)]).toEqual([
      422,
      expect.stringContaining('4096'),
    ]);
    const badMask = await run(service, clock, 'flux-pro-1.0-fill', {
      image: b64(await sourcePng()),
      mask: b64(await whiteMask(3, 3)),
    });
    expect([badMask.submitted.status, JSON.stringify(badMask.submitted.json)]).toEqual([
      422,
      expect.stringContaining('not the image'),
    ]);
  });

  it('moderates a flagged input: Request Moderated, the reason naming the input image', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const { result } = await run(service, clock, 'flux-kontext-pro', {
      prompt: 'this one is flagged',
      input_image: b64(await sourcePng()),
    });
    expect(result?.status).toBe('Request Moderated');
    expect(JSON.stringify(result?.details)).toContain('input image');
  });

  it('never fetches a link that is not its own: the dialect error, no request made', async () => {
    const hits: string[] = [];
    const outside = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
    const address = outside.address() as { port: number };
    try {
      const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
      for (const link of [
        `http://127.0.0.1:${address.port}/a.png`,
        'http://169.254.169.254/latest',
        `${service.storage.url}/fal/x`,
      ]) {
        const { submitted } = await run(service, clock, 'flux-kontext-pro', { input_image: link });
        expect([submitted.status, JSON.stringify(submitted.json)]).toEqual([
          422,
          expect.stringContaining('could not be fetched'),
        ]);
      }
      expect(hits).toEqual([]);
      expect(service.storage.requests).toEqual([]);
    } finally {
      outside.close();
    }
  });

  it('takes one of its own result images as a link', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const first = await run(service, clock, 'flux-kontext-pro', {
      input_image: b64(await sourcePng()),
    });
    const second = await run(service, clock, 'flux-kontext-pro', {
      input_image: first.result!.result!.sample,
    });
    const out = await pixelsAt(second.result!.result!.sample);
    expect(out.at(0, 0)).toEqual([(63 * 3 + 255) >> 2, (40 * 3 + 160) >> 2, (150 * 3) >> 2, 255]);
  });
});
