/**
 * The `inputs:` and `edit:` channels over a real AppRuntime (its demo service on loopback) and
 * the IPC bridge that parses every request, as a compromised page could call them: a file only
 * from main's own dialog (the stand-in's), a path where a digest goes, a huge mask, a mask of
 * another size or not a PNG, an unknown digest, a target carrying an address; each refused with
 * nothing stored. A stored input's address is on the gallery scheme; consent is kept once; an edit
 * on the demo's own edit model is planned (inline) and run (stored, sent, completed: the image the
 * demo derives from the source's pixels), and a fill of that library image under an alpha-edit
 * mask paints the masked half the demo's fill colour and keeps its parent.
 */
import { createHash } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../../../shared/domain/image-inputs';
import { mappedWorkflow, readWorkflowText } from '../../../shared/domain/comfy-prompt';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app() {
  const env: Record<string, string | undefined> = {};
  const { dir, runtime, request, os } = await wiredIpc(cleanups, {
    prefix: 'pictor-input-ipc-',
    env,
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  const stored = () => readdir(join(runtime.galleryDir(), 'inputs')).catch(() => []);
  return { dir, runtime, request, env, os, stored };
}

function picture(width: number, height: number, format: 'png' | 'jpeg' = 'png') {
  return sharp({ create: { width, height, channels: 4, background: '#8a4f' } })
    .toFormat(format)
    .toBuffer();
}

/** A PNG file's pixels, read by sharp (not the demo's codec). */
async function pixelsOf(path: string) {
  const { data, info } = await sharp(path)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4),
  ];
  return { width: info.width, height: info.height, at };
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('inputs over IPC', () => {
  it('opens a file only through main’s own dialog, and keeps only images', async () => {
    const { dir, request, env, os, stored } = await app();
    // No path crosses from the page: the channel takes no input at all.
    expect(await request('inputs:pickFile', { path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(okValue(await request('inputs:pickFile'))).toBeNull();
    const png = await picture(48, 32);
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'photo.png');
    await writeFile(join(dir, 'photo.png'), png);
    expect(okValue(await request('inputs:pickFile'))).toEqual({
      image: { sha256: sha(png), mime: 'image/png', width: 48, height: 32, bytes: png.length },
    });
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'notes.png');
    await writeFile(join(dir, 'notes.png'), 'not an image at all');
    const refused = await request('inputs:pickFile');
    expect(refused).toMatchObject({ ok: false });
    // The store's one refusal of a format, in its one sentence.
    expect(!refused.ok && refused.error).toMatchObject({
      code: 'bad_input',
      sentence: { key: 'error.inputs.format' },
      message: expect.stringMatching(/not a PNG, JPEG or WebP image/),
    });
    expect(os.calls.filter((call) => call.action === 'chooseInputImage')).toHaveLength(3);
    expect(await stored()).toEqual([`${sha(png)}.png`]);
  });

  it('refuses hostile masks and digests before anything is stored', async () => {
    const { dir, request, env, stored } = await app();
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'photo.jpg');
    await writeFile(join(dir, 'photo.jpg'), await picture(40, 30, 'jpeg'));
    const source = okValue(await request('inputs:pickFile'))!.image;
    const before = await stored();
    const mask = (await picture(40, 30)).toString('base64');
    const cases: [unknown, string, RegExp][] = [
      [{ source: '../../etc/passwd', png: mask }, 'bad_input', /./],
      [
        { source: source.sha256, png: 'A'.repeat(Math.ceil((MAX_INPUT_BYTES * 4) / 3) + 8) },
        'bad_input',
        /./,
      ],
      [{ source: source.sha256, png: 'not base64!' }, 'bad_input', /./],
      [{ source: source.sha256, png: mask, path: '/tmp/x' }, 'bad_input', /./],
      [{ source: sha(Buffer.from('nothing')), png: mask }, 'not_found', /choose it again/],
      [
        { source: source.sha256, png: (await picture(30, 40)).toString('base64') },
        'failed',
        /30×40 pixels and its image 40×30/,
      ],
      [
        { source: source.sha256, png: (await picture(40, 30, 'jpeg')).toString('base64') },
        'failed',
        /must be a PNG/,
      ],
    ];
    for (const [input, code, message] of cases) {
      const answer = await request('inputs:putMask', input);
      expect(answer).toMatchObject({ ok: false, error: { code } });
      expect(!answer.ok && answer.error.message).toMatch(message);
    }
    expect(await stored()).toEqual(before);
    const kept = okValue(await request('inputs:putMask', { source: source.sha256, png: mask }));
    expect(kept.mask).toMatchObject({ mime: 'image/png', width: 40, height: 30 });
    const unknown = sha(Buffer.from('never stored'));
    const notFound = { ok: false, error: { code: 'not_found' } };
    const badInput = { ok: false, error: { code: 'bad_input' } };
    expect(await request('inputs:address', { sha256: unknown })).toMatchObject(notFound);
    expect(await request('inputs:downscale', { sha256: unknown, maxSide: 64 })).toMatchObject(
      notFound,
    );
    expect(await request('inputs:address', { sha256: 'inputs/../x' })).toMatchObject(badInput);
    expect(await request('inputs:downscale', { sha256: '../x', maxSide: 64 })).toMatchObject(
      badInput,
    );
    expect(await request('inputs:fromLibrary', { localId: '../../etc', index: 0 })).toMatchObject({
      ok: false,
    });
  });

  it('gives a stored input’s address on the gallery scheme, a smaller copy, and keeps consent once', async () => {
    const { dir, runtime, request, env } = await app();
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'photo.png');
    await writeFile(join(dir, 'photo.png'), await picture(300, 200));
    const source = okValue(await request('inputs:pickFile'))!.image;
    expect(okValue(await request('inputs:address', { sha256: source.sha256 }))).toEqual({
      url: `pictor-gallery://gallery/inputs/${source.sha256}.png`,
    });
    const smaller = okValue(
      await request('inputs:downscale', { sha256: source.sha256, maxSide: 60 }),
    );
    expect(smaller.image).toMatchObject({ mime: 'image/png', width: 60, height: 40 });
    expect(okValue(await request('inputs:consent', { provider: 'fal' }))).toBeUndefined();
    okValue(await request('inputs:consent', { provider: 'fal' }));
    expect(runtime.settings.get().publicUploadConsent).toEqual(['fal']);
    expect(await request('inputs:consent', { provider: 'evil' })).toMatchObject({ ok: false });
  });

  /** An edit planned and run on the demo's edit model, completed; its record and pixels. */
  async function editedOnDemo() {
    const { dir, runtime, request, env } = await app();
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'photo.png');
    await writeFile(join(dir, 'photo.png'), await picture(64, 64));
    const source = okValue(await request('inputs:pickFile'))!.image;
    const input = {
      prompt: 'make it blue',
      inputs: { operation: 'edit', source },
      targets: [
        { provider: 'pictor', model: 'demo-edit' },
        { provider: 'bfl', model: 'flux-pro-1.0-fill' },
      ],
    };
    const plan = okValue(await request('edit:plan', input));
    expect(plan.targets).toEqual([
      {
        slot: 1,
        label: 'Image task service (demo) · demo-edit',
        service: 'pictor',
        demo: true,
        model: 'demo-edit',
        notes: [],
        inputs: { route: 'inline', publicLinks: false, consentNeeded: false },
      },
    ]);
    expect(plan.leftOut[0]?.slot).toBe(2);
    expect(runtime.core.history.list({}).items).toEqual([]);
    const withAddress = {
      ...input,
      targets: [{ provider: 'pictor', model: 'demo-edit', baseUrl: 'https://evil.example' }],
    };
    expect(await request('edit:run', withAddress)).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    const run = okValue(await request('edit:run', input));
    expect(run.items).toHaveLength(1);
    const record = run.items[0]!.record;
    expect(record.compare?.group).toBe(run.group);
    expect(record.request.inputs?.source).toEqual(source);
    expect(runtime.core.history.list({}).items.map((one) => one.localId)).toEqual([record.localId]);
    const [done] = await runtime.core.engine.whenSettled([record.localId]);
    expect(done?.status).toBe('completed');
    // The demo's edit: each channel (3 × source + tint) / 4 with the tint (255, 160, 0).
    const source64 = await pixelsOf(join(dir, 'photo.png'));
    const edited = await pixelsOf(runtime.core.gallery.resolve(done!.images[0]!.file!));
    const tint = [255, 160, 0];
    expect(edited.at(10, 10)).toEqual([
      ...[0, 1, 2].map((c) => (source64.at(10, 10)[c]! * 3 + tint[c]!) >> 2),
      source64.at(10, 10)[3],
    ]);
    return { runtime, request, record: done!, edited };
  }

  it('plans and runs an edit on the demo’s edit model, and refuses a target with an address', async () => {
    await editedOnDemo();
  });

  it('plans an edit on an imported ComfyUI workflow whose map names an input image, and not on one without', async () => {
    const { dir, runtime, request, env } = await app();
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'photo.png');
    await writeFile(join(dir, 'photo.png'), await picture(64, 64));
    const source = okValue(await request('inputs:pickFile'))!.image;
    const graph = {
      '10': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sdxl.safetensors' } },
      '11': { class_type: 'CLIPTextEncode', inputs: { text: 'a placeholder', clip: ['10', 1] } },
      '20': { class_type: 'LoadImage', inputs: { image: 'placeholder.png' } },
      '16': { class_type: 'SaveImage', inputs: { filename_prefix: 'mine', images: ['20', 0] } },
    };
    const read = readWorkflowText(JSON.stringify(graph));
    if (!read.ok) throw new Error(read.problem);
    for (const [name, map] of [
      ['inpaint', { prompt: '11.text', image: '20.image' }],
      ['text-only', { prompt: '11.text' }],
    ] as const) {
      const mapped = mappedWorkflow(read.graph, map);
      if (!mapped.ok) throw new Error(mapped.problem);
      await runtime.core.workflows.save(name, mapped.workflow);
    }
    const plan = okValue(
      await request('edit:plan', {
        prompt: 'make it blue',
        inputs: { operation: 'edit', source },
        targets: [
          { provider: 'comfyui', model: 'inpaint' },
          { provider: 'comfyui', model: 'text-only' },
        ],
      }),
    );
    expect(plan.targets.map((target) => target.slot)).toEqual([1]);
    expect(plan.leftOut.map((left) => left.slot)).toEqual([2]);
  });

  it('fills a library image under an alpha-edit mask: the masked half the demo’s fill colour, its parent kept', async () => {
    const { runtime, request, record, edited } = await editedOnDemo();
    const ref = { localId: record.localId, index: 0 };
    const { image: source, parent } = okValue(await request('inputs:fromLibrary', ref))!;
    expect(parent).toEqual(ref);
    // Alpha 0 (edit) on the left half, opaque on the right.
    const rgba = Buffer.alloc(64 * 64 * 4, 255);
    for (let y = 0; y < 64; y += 1) {
      for (let x = 0; x < 32; x += 1) rgba[(y * 64 + x) * 4 + 3] = 0;
    }
    const png = await sharp(rgba, { raw: { width: 64, height: 64, channels: 4 } })
      .png()
      .toBuffer();
    const { mask } = okValue(
      await request('inputs:putMask', { source: source.sha256, png: png.toString('base64') }),
    )!;
    const run = okValue(
      await request('edit:run', {
        prompt: 'a moon',
        inputs: { operation: 'fill', source, maskAlpha: mask, parent },
        targets: [{ provider: 'pictor', model: 'demo-edit' }],
      }),
    );
    const [done] = await runtime.core.engine.whenSettled([run.items[0]!.record.localId]);
    expect(done?.status).toBe('completed');
    expect(done!.request.inputs).toMatchObject({
      operation: 'fill',
      source: { sha256: source.sha256 },
      maskAlpha: { sha256: mask.sha256 },
      parent: ref,
    });
    const filled = await pixelsOf(runtime.core.gallery.resolve(done!.images[0]!.file!));
    expect([filled.width, filled.height]).toEqual([64, 64]);
    for (const [x, y] of [
      [0, 0],
      [31, 63],
      [12, 40],
    ] as const) {
      expect(filled.at(x, y), `${x},${y}`).toEqual([255, 0, 255, 255]);
    }
    for (const [x, y] of [
      [32, 0],
      [63, 63],
      [50, 20],
    ] as const) {
      expect(filled.at(x, y), `${x},${y}`).toEqual(edited.at(x, y));
    }
  });
});
