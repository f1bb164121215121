/**
 * `pictor edit` and `pictor upscale` as child processes of the bundled CLI: on the built-in demo
 * (today's contract, its edit model demo-edit, alpha-edit masks), a file kept in the input store
 * by its digest and a library image kept as the result's parent; and every refusal that must
 * come before any request, against the demo service speaking a real provider's dialect, whose
 * request log must stay empty: a mask of another size or convention, a file that is not an image,
 * more references than the model takes, --inputs upload on a model that takes no upload, and
 * an upload whose links would be public without the user's consent.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { expectExit, useCliWorlds, type CliWorld } from './cli-harness';
import { useProviderWorlds, type Dialect } from './providers-harness';
import { describeRun, jsonLines, type CliRun } from './run-cli';
import { TempFolders } from '../../support/temp-folders';

const newWorld = useCliWorlds();
const newProviderWorld = useProviderWorlds();

const folders = new TempFolders();
afterEach(async () => {
  await folders.removeAll();
});

/** Real image files in a fresh folder. */
async function files() {
  const dir = await folders.make('edit-files');
  const write = async (name: string, bytes: Buffer) => {
    await writeFile(join(dir, name), bytes);
    return join(dir, name);
  };
  const rgb = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#336699' } });
  const source = await write('source.png', await rgb(64, 48).png().toBuffer());
  const alphaMask = await write(
    'mask-alpha.png',
    await sharp({ create: { width: 64, height: 48, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer(),
  );
  const whiteMask = await write(
    'mask-white.png',
    await rgb(64, 48).greyscale().png({ palette: false }).toColourspace('b-w').toBuffer(),
  );
  const smallMask = await write(
    'mask-small.png',
    await rgb(32, 48).greyscale().toColourspace('b-w').png().toBuffer(),
  );
  const jpeg = await write('ref.jpg', await rgb(40, 40).jpeg().toBuffer());
  const text = await write('notes.png', Buffer.from('not an image at all\n'));
  return { dir, source, alphaMask, whiteMask, smallMask, jpeg, text };
}

/** A run on the built-in demo: no key, no address. */
function onDemo(world: CliWorld, args: string[]): Promise<CliRun> {
  return world.run([...args, '--provider', 'demo', '--poll-interval', '0.2', '--timeout', '30'], {
    named: false,
    key: null,
    env: { PICTOR_DEMO_DURATION_MS: '100' },
  });
}

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

interface EditJson {
  localId: string;
  taskId: string | null;
  status: string;
  model: string | null;
  operation: string | null;
  factor: number | null;
  parent: { localId: string; index: number } | null;
  route: string | null;
  inputs: { role: string; sha256: string; route: string }[];
  images: { path: string | null; state: string }[];
}

function onlyEdit(run: CliRun): EditJson {
  const lines = jsonLines(run) as unknown as EditJson[];
  expect(lines, describeRun(run)).toHaveLength(1);
  return lines[0]!;
}

describe('edit and upscale on the built-in demo', () => {
  it('edits a file (kept in the input store by digest), then its result as a library image (its parent)', async () => {
    const world = await newWorld();
    const made = await files();
    const first = await onDemo(world, ['edit', made.source, '--prompt', 'make it night', '--json']);
    expectExit(first, 0);
    const task = onlyEdit(first);
    const digest = await sha256(made.source);
    expect(task).toMatchObject({
      status: 'completed',
      model: 'demo-edit',
      operation: 'edit',
      parent: null,
      route: 'inline',
      inputs: [{ role: 'source', sha256: digest, route: 'inline' }],
    });
    expect(task.images[0]?.state).toBe('saved');
    const stored = join(world.dataDir, 'gallery', 'inputs', `${digest}.png`);
    expect(await sha256(stored)).toBe(digest);

    const again = await onDemo(world, [
      'edit',
      `${task.localId}#1`,
      '--prompt',
      'add stars',
      '--json',
    ]);
    expectExit(again, 0);
    expect(onlyEdit(again)).toMatchObject({
      operation: 'edit',
      parent: { localId: task.localId, index: 0 },
    });
    const bySeviceId = await onDemo(world, ['upscale', task.taskId!, '--factor', '2', '--json']);
    expectExit(bySeviceId, 0);
    expect(onlyEdit(bySeviceId)).toMatchObject({
      operation: 'upscale',
      factor: 2,
      model: 'demo-edit',
      parent: { localId: task.localId, index: 0 },
    });
  });

  it('makes an RGBA mask a fill in the alpha-edit form, and prints the saved image’s path', async () => {
    const world = await newWorld();
    const made = await files();
    const run = await onDemo(world, [
      'edit',
      made.source,
      '--prompt',
      'a moon',
      '--mask',
      made.alphaMask,
      '--ref',
      made.jpeg,
    ]);
    expectExit(run, 0);
    const [path] = run.stdout.trim().split('\n');
    expect((await readFile(path!)).subarray(1, 4).toString()).toBe('PNG');
    const json = await onDemo(world, [
      'edit',
      made.source,
      '--prompt',
      'a moon',
      '--mask',
      made.alphaMask,
      '--json',
    ]);
    expect(onlyEdit(json)).toMatchObject({
      operation: 'fill',
      inputs: [
        { role: 'source', sha256: await sha256(made.source) },
        { role: 'maskAlpha', sha256: await sha256(made.alphaMask) },
      ],
    });
  });

  it('converts a white-edit mask for a model that reads alpha, saying so in one line', async () => {
    const world = await newWorld();
    const made = await files();
    // White (edit) on the left half, black (keep) on the right.
    const half = await sharp({
      create: { width: 32, height: 48, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    const white = join(made.dir, 'mask-white-half.png');
    await writeFile(
      white,
      await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000000' } })
        .composite([{ input: half, left: 0, top: 0 }])
        .greyscale()
        .toColourspace('b-w')
        .png()
        .toBuffer(),
    );
    const args = ['edit', made.source, '--prompt', 'x', '--mask', white];
    const run = await onDemo(world, args);
    expectExit(run, 0);
    expect(run.stderr).toContain(
      'demo-edit reads an alpha-edit mask (an RGBA PNG whose alpha is 0 where to edit); the --mask file was converted to it.\n',
    );
    const json = await onDemo(world, [...args, '--json']);
    const roles = (onlyEdit(json) as { inputs: { role: string; sha256: string }[] }).inputs;
    expect(roles.map((input) => input.role)).toEqual(['source', 'maskAlpha']);
    expect(roles[1]?.sha256).not.toBe(await sha256(white));
    // The same mask 16 bits a sample and Adam7-interlaced is converted too, not sent as it came.
    const deep = join(made.dir, 'mask-white-half-16-interlaced.png');
    await writeFile(
      deep,
      await sharp(white).toColourspace('grey16').png({ progressive: true }).toBuffer(),
    );
    const deepRun = await onDemo(world, ['edit', made.source, '--prompt', 'x', '--mask', deep]);
    expectExit(deepRun, 0);
    expect(deepRun.stderr).toContain('the --mask file was converted to it.\n');
  });

  it('refuses a library image the library does not have, and a task with several images without #N', async () => {
    const world = await newWorld();
    const run = await onDemo(world, ['edit', 'no-such-task#1', '--prompt', 'x']);
    expectExit(run, 2);
    expect(run.stderr).toMatch(/neither an image of the library \(ID or ID#N\) nor a file/);
  });
});

/** A run against the dialect's demo service; nothing may reach it. */
async function refusedBeforeNetwork(dialect: Dialect, args: string[], said: RegExp): Promise<void> {
  const world = await newProviderWorld(dialect);
  const run = await world.run([...args, ...world.named]);
  expectExit(run, 2);
  expect(run.stderr).toMatch(said);
  expect(run.stderr).toMatch(/Nothing was sent\./);
  expect((await world.service.log()).requests, 'a request reached the service').toEqual([]);
}

describe('refused before any request leaves', () => {
  it('a mask of another size', async () => {
    const made = await files();
    await refusedBeforeNetwork(
      'bfl',
      ['edit', made.source, '--prompt', 'x', '--mask', made.smallMask],
      /The mask is 32x48, but the image is 64x48/,
    );
  });

  it('a mask that is not a PNG, and a source that is not an image', async () => {
    const made = await files();
    await refusedBeforeNetwork(
      'bfl',
      ['edit', made.source, '--prompt', 'x', '--mask', made.jpeg],
      /The --mask file is not a PNG/,
    );
    await refusedBeforeNetwork(
      'fal',
      ['edit', made.text, '--prompt', 'x'],
      /The image is not a PNG, JPEG or WebP file/,
    );
  });

  it('more references than the model takes', async () => {
    const made = await files();
    await refusedBeforeNetwork(
      'bfl',
      ['edit', made.source, '--prompt', 'x', '--model', 'flux-kontext-pro', '--ref', made.jpeg],
      /flux-kontext-pro takes at most 0 reference image\(s\) \(--ref\); there were 1/,
    );
    const eight = Array.from({ length: 8 }, () => ['--ref', made.jpeg]).flat();
    await refusedBeforeNetwork(
      'bfl',
      ['edit', made.source, '--prompt', 'x', '--model', 'flux-2-pro', ...eight],
      /flux-2-pro takes at most 7 reference image\(s\)/,
    );
  });

  it('--inputs upload on a model that takes no upload (not that the image is too large)', async () => {
    const made = await files();
    await refusedBeforeNetwork(
      'bfl',
      ['edit', made.source, '--prompt', 'x', '--inputs', 'upload'],
      /This model takes no upload: its images go inside the request\./,
    );
  });

  it('an upload whose links would be public, until --allow-public-upload', async () => {
    const made = await files();
    await refusedBeforeNetwork(
      'fal',
      ['edit', made.source, '--prompt', 'x', '--inputs', 'upload'],
      /fal\.ai makes every uploaded image a public link.*--allow-public-upload/,
    );
  });

  it('a model that cannot do it, naming those that can', async () => {
    const made = await files();
    await refusedBeforeNetwork(
      'bfl',
      ['upscale', made.source, '--factor', '4'],
      /No model of Black Forest Labs can upscale ×4\. Models that can: .*replicate nightmareai\/real-esrgan/,
    );
  });
});

/** An edit against a dialect's demo, waited for; its one JSON line. */
async function editOn(
  dialect: Dialect,
  args: (made: Awaited<ReturnType<typeof files>>) => string[],
) {
  const world = await newProviderWorld(dialect);
  const made = await files();
  const run = await world.run([
    ...args(made),
    ...world.named,
    '--json',
    '--poll-interval',
    '0.2',
    '--timeout',
    '30',
  ]);
  return { world, made, run };
}

describe('edits in each dialect, on the demo service', () => {
  it.each([
    ['bfl', 'flux-kontext-pro', 'inline'],
    ['fal', 'fal-ai/flux-pro/kontext', 'inline'],
    ['replicate', 'black-forest-labs/flux-kontext-pro', 'inline'],
  ] as const)(
    '%s: an instruction edit with its first edit model, inputs %s',
    async (dialect, model, route) => {
      const { world, made, run } = await editOn(dialect, (m) => [
        'edit',
        m.source,
        '--prompt',
        'night',
      ]);
      expectExit(run, 0);
      expect(onlyEdit(run)).toMatchObject({
        status: 'completed',
        model,
        operation: 'edit',
        route,
        inputs: [{ role: 'source', sha256: await sha256(made.source), route }],
      });
      expect((await world.service.log()).submits).toHaveLength(1);
    },
  );

  it('bfl: a white-edit mask makes a fill on FLUX Fill', async () => {
    const { run } = await editOn('bfl', (m) => [
      'edit',
      m.source,
      '--prompt',
      'a moon',
      '--mask',
      m.whiteMask,
    ]);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({
      model: 'flux-pro-1.0-fill',
      operation: 'fill',
      inputs: [{ role: 'source' }, { role: 'mask' }],
    });
  });

  it('fal: an upload of public links after --allow-public-upload, remembered for fal', async () => {
    const { world, run } = await editOn('fal', (m) => [
      'edit',
      m.source,
      '--prompt',
      'night',
      '--inputs',
      'upload',
      '--allow-public-upload',
    ]);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({ route: 'upload', publicLinks: true });
    const settings = JSON.parse(await readFile(join(world.dataDir, 'settings.json'), 'utf8')) as {
      settings: { publicUploadConsent: string[] };
    };
    expect(settings.settings.publicUploadConsent).toEqual(['fal']);
  });

  it('dashscope: an edit inside the request as a data: URI, under --inputs never, nothing uploaded', async () => {
    const { world, made, run } = await editOn('dashscope', (m) => [
      'edit',
      m.source,
      '--prompt',
      'night',
      '--inputs',
      'never',
    ]);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({
      status: 'completed',
      model: 'wanx2.1-imageedit',
      route: 'inline',
      inputs: [{ role: 'source', sha256: await sha256(made.source), route: 'inline' }],
      images: [{ state: 'saved' }],
    });
    const storage = (await (await fetch(`${world.service.url}/_demo/storage`)).json()) as {
      requests: unknown[];
    };
    expect(storage.requests).toEqual([]);
  });

  it('dashscope: an edit uploaded by the OSS form to the storage, named oss:// in the submit', async () => {
    const { world, made, run } = await editOn('dashscope', (m) => [
      'edit',
      m.source,
      '--prompt',
      'night',
      '--inputs',
      'upload',
    ]);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({
      status: 'completed',
      model: 'wanx2.1-imageedit',
      operation: 'edit',
      route: 'upload',
      inputs: [{ role: 'source', sha256: await sha256(made.source), route: 'upload' }],
    });
    expect((await world.service.log()).submits).toHaveLength(1);
    const storage = (await (await fetch(`${world.service.url}/_demo/storage`)).json()) as {
      requests: unknown[];
    };
    // The form went over the pinned connection (no key), its file as it was on disk.
    expect(storage.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        keySeen: false,
        status: 200,
        stored: expect.objectContaining({ sha256: await sha256(made.source) }),
      }),
    ]);
  });

  it('dashscope: upscale ×2 by super_resolution, its input inside the request', async () => {
    const { run } = await editOn('dashscope', (m) => ['upscale', m.source, '--factor', '2']);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({
      status: 'completed',
      model: 'wanx2.1-imageedit',
      operation: 'upscale',
      factor: 2,
      route: 'inline',
    });
  });

  it('replicate: upscale ×4 on nightmareai/real-esrgan, by its version on POST /v1/predictions', async () => {
    const { world, run } = await editOn('replicate', (m) => ['upscale', m.source, '--factor', '4']);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({
      status: 'completed',
      model: 'nightmareai/real-esrgan',
      operation: 'upscale',
      factor: 4,
    });
    const [submit] = (await world.service.log()).submits;
    expect(submit).toMatchObject({ method: 'POST', path: '/v1/predictions', status: 201 });
  });

  it('fal: upscale ×4 on the first model that upscales by 4, its one `image` saved', async () => {
    const { run } = await editOn('fal', (m) => ['upscale', m.source, '--factor', '4']);
    expectExit(run, 0);
    expect(onlyEdit(run)).toMatchObject({
      status: 'completed',
      model: 'fal-ai/clarity-upscaler',
      operation: 'upscale',
      factor: 4,
      images: [{ state: 'saved' }],
    });
  });
});
