/**
 * Today's contract with the demo's edit model: data: URIs, an alpha-edit mask at known pixels,
 * upscale, a JPEG source (a drawn scene of the right size), and the refusals.
 */
import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import { TestClock, auth, startService } from './helpers';
import { send } from './dialect-helpers';
import { alphaMask, dataUri, jpegOf, pixelsAt, pngOf, sourcePng } from './input-helpers';

async function run(service: DemoService, clock: TestClock, body: object) {
  const submitted = await send(
    `${service.url}/v1/images/generations`,
    { model: 'demo-edit', prompt: 'warm', ...body },
    auth('demo'),
  );
  if (submitted.status !== 200) return { submitted, task: null };
  clock.advance(10_000);
  const id = (submitted.json as { id: string }).id;
  const task = await fetch(`${service.url}/v1/tasks/${id}`, { headers: auth('demo') }).then((r) =>
    r.json(),
  );
  return {
    submitted,
    task: task as {
      status: string;
      error?: { code: string; message: string };
      output?: { data: { url: string }[] };
    },
  };
}

async function started() {
  const clock = new TestClock();
  return { clock, service: await startService({ now: clock.now, durationMs: 3000 }) };
}

describe('demo-edit (today’s contract)', () => {
  it('fills under an alpha-edit mask (alpha 0 = edit) and copies the rest exactly', async () => {
    const { service, clock } = await started();
    const { task } = await run(service, clock, {
      operation: 'fill',
      image: dataUri(await sourcePng()),
      mask: dataUri(await alphaMask(4, 3, (x) => x >= 2)),
    });
    const out = await pixelsAt(task!.output!.data[0]!.url);
    expect([out.at(1, 1), out.at(2, 1), out.at(3, 2)]).toEqual([
      [60, 80, 200, 255],
      [255, 0, 255, 255],
      [255, 0, 255, 255],
    ]);
  });

  it('edits and upscales ×4', async () => {
    const { service, clock } = await started();
    const image = dataUri(await sourcePng());
    const edit = await run(service, clock, { operation: 'edit', image, reference_images: [image] });
    expect((await pixelsAt(edit.task!.output!.data[0]!.url)).at(0, 0)).toEqual([63, 40, 150, 255]);
    const up = await run(service, clock, { operation: 'upscale', image, factor: 4 });
    const big = await pixelsAt(up.task!.output!.data[0]!.url);
    expect([big.width, big.height, big.at(4, 0)]).toEqual([16, 12, [60, 0, 200, 255]]);
  });

  it('answers a JPEG source with a drawn scene of the output size', async () => {
    const { service, clock } = await started();
    const up = await run(service, clock, {
      operation: 'upscale',
      image: dataUri(await jpegOf(5, 3), 'image/jpeg'),
      factor: 2,
    });
    const out = await pixelsAt(up.task!.output!.data[0]!.url);
    expect([out.width, out.height]).toEqual([10, 6]);
  });

  it('refuses a mask without alpha, four references, a WebP claimed as PNG that is text, and 4 MB + 1', async () => {
    const { service, clock } = await started();
    const image = dataUri(await sourcePng());
    const rgbMask = await pngOf(4, 3, () => [0, 0, 0, 255], 3);
    const noAlpha = await run(service, clock, { operation: 'fill', image, mask: dataUri(rgbMask) });
    expect([noAlpha.submitted.status, JSON.stringify(noAlpha.submitted.json)]).toEqual([
      400,
      expect.stringContaining('invalid_mask'),
    ]);
    const refs = await run(service, clock, {
      operation: 'edit',
      image,
      reference_images: [image, image, image, image],
    });
    expect(JSON.stringify(refs.submitted.json)).toContain('too_many_references');
    const text = await run(service, clock, {
      operation: 'edit',
      image: dataUri(Buffer.from('<html>hi</html>')),
    });
    expect(JSON.stringify(text.submitted.json)).toContain('unsupported_image');
    const big = Buffer.concat([await sourcePng(), Buffer.alloc(4 * 1024 * 1024)]);
    const tooBig = await run(service, clock, { operation: 'edit', image: dataUri(big) });
    expect([tooBig.submitted.status, JSON.stringify(tooBig.submitted.json)]).toEqual([
      400,
      expect.stringContaining('image_too_large'),
    ]);
  });

  it('fails a flagged input with content_moderated naming the input image', async () => {
    const { service, clock } = await started();
    const { task } = await run(service, clock, {
      prompt: 'flagged',
      operation: 'edit',
      image: dataUri(await sourcePng()),
    });
    expect(task?.status).toBe('failed');
    expect(task?.error).toEqual({
      code: 'content_moderated',
      message: expect.stringContaining('input image'),
    });
  });
});
