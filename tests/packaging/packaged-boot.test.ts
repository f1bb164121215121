/**
 * The packaged app boots: the linux-x64 target packed by electron-builder (stand-in Electron),
 * its app.asar extracted with the unpacked files beside it into a folder outside the repository,
 * and its main bundle run by Node with `electron` resolved to a recording stand-in
 * (boot/electron-stand-in.ts). Nothing else comes from the repository, so a module the packed app
 * needs and does not carry fails the boot. Driven over the child's IPC channel: start-up to a
 * window, one generation on the built-in demo service through the IPC handlers (downloaded,
 * checked and thumbnailed by the packed image worker), quit. Then the same files as the
 * `pictor` command line.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import asar from '@electron/asar';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDemoService } from '../../electron/demo-service/server';
import type { DemoService } from '../../electron/demo-service/types';
import { REQUEST_CHANNEL_NAMES } from '../../shared/ipc/channels';
import { packTarget } from './stand-in-targets';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The run's test build (global-setup.ts), which is what gets packed. */
const BUILD_ROOT = inject('pictorTestBuild');
const HOOKS = pathToFileURL(path.join(ROOT, 'tests/packaging/boot/resolve-electron.mjs')).href;
const TSX = import.meta.resolve('tsx');
const APP_URL = 'pictor-app://app/index.html';

interface Message {
  readonly type: string;
  readonly [key: string]: unknown;
}

let work = '';
let appDir = '';
let resourcesDir = '';

/** A booted packed app: its messages so far, and ways to wait for one and to call a handler. */
class Boot {
  readonly messages: Message[] = [];
  readonly output: string[] = [];
  private nextId = 1;
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.on('message', (message: Message) => this.messages.push(message));
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  async until<T>(find: (messages: Message[]) => T | undefined, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const found = find(this.messages);
      if (found !== undefined) return found;
      if (this.child.exitCode !== null || Date.now() > end) {
        throw new Error(
          `the packed app did not get there (exit ${this.child.exitCode}):\n${this.output.join('').slice(-3000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async invoke(channel: string, input?: unknown): Promise<{ ok: boolean; value?: unknown }> {
    const id = this.nextId++;
    this.child.send({ type: 'invoke', id, channel, input });
    const result = await this.until((all) =>
      all.find((message) => message.type === 'result' && message['id'] === id),
    );
    return result['value'] as { ok: boolean; value?: unknown };
  }
}

function boot(app: string, dataDir: string): Boot {
  const child = fork(path.join(app, 'dist-electron', 'main.js'), [], {
    cwd: app,
    execArgv: ['--import', TSX, '--import', HOOKS],
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: dataDir,
      PICTOR_BOOT_DIR: dataDir,
      PICTOR_BOOT_APP: path.join(app),
      PICTOR_BOOT_RESOURCES: resourcesDir,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return new Boot(child);
}

/** Contract channels with no handler yet when the window started loading (the stand-in's report). */
function missingAtLoad(window: Message): string[] {
  const registered = new Set(window['channels'] as string[]);
  return REQUEST_CHANNEL_NAMES.filter((channel) => !registered.has(channel));
}

/** The packed app's files only: app.asar extracted (unpacked files included) outside the repo. */
async function packedFiles(): Promise<string> {
  const electron = JSON.parse(
    await readFile(path.join(ROOT, 'node_modules/electron/package.json'), 'utf8'),
  ) as { version: string };
  const { appOut } = await packTarget(
    BUILD_ROOT,
    work,
    { os: 'linux', arch: 'x64' },
    electron.version,
  );
  const dir = path.join(work, 'app');
  resourcesDir = path.join(appOut, 'resources');
  asar.extractAll(path.join(resourcesDir, 'app.asar'), dir);
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'pictor-boot-'));
  appDir = await packedFiles();
}, 240_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed app, booted', () => {
  let app: Boot;
  let data = '';

  beforeAll(async () => {
    data = await mkdtemp(path.join(work, 'data-'));
    app = boot(appDir, data);
  });

  afterAll(() => {
    if (app.child.exitCode === null) app.child.kill('SIGKILL');
  });

  it('is outside the repository, so nothing resolves from the repository’s node_modules', () => {
    expect(path.relative(ROOT, appDir).startsWith('..')).toBe(true);
  });

  it('serves both protocols before its window loads the app, with the packed preload', async () => {
    const window = await app.until((all) => all.find((message) => message.type === 'window'));
    expect(window['url']).toBe(APP_URL);
    const before = app.messages.slice(0, app.messages.indexOf(window));
    expect(
      before
        .filter((message) => message.type === 'protocol')
        .map((message) => message['scheme'])
        .sort(),
    ).toEqual(['pictor-app', 'pictor-gallery']);
    const preload = String(window['preload']);
    expect(preload.startsWith(appDir)).toBe(true);
    expect((await stat(preload)).isFile()).toBe(true);
  });

  it('has a handler for every request channel before its window starts loading', async () => {
    const window = await app.until((all) => all.find((message) => message.type === 'window'));
    expect(missingAtLoad(window)).toEqual([]);
  });

  it('registers every request channel of the contract', async () => {
    const channels = await app.until((all) =>
      all.findLast((message) => message.type === 'channels'),
    );
    expect([...(channels['names'] as string[])].sort()).toEqual([...REQUEST_CHANNEL_NAMES].sort());
  });

  it('generates one image on the built-in demo service, saved with its thumbnail', async () => {
    await app.until((all) => all.find((message) => message.type === 'channels'));
    const info = await app.invoke('app:getInfo');
    expect(info).toMatchObject({ ok: true, value: { demo: true } });
    const submitted = await app.invoke('tasks:submit', {
      request: { prompt: 'packaged boot', size: '64x64' },
      count: 1,
    });
    expect(submitted, JSON.stringify(submitted)).toMatchObject({ ok: true });
    // Completed, then its image downloaded and checked by the packed app's image engine.
    const completed = await app.until(
      (all) =>
        all.find((message) => {
          const payload = message['payload'] as
            { record?: { status?: string; images?: { state: string }[] } } | undefined;
          const images = payload?.record?.images ?? [];
          return (
            message.type === 'event' &&
            message['channel'] === 'task:updated' &&
            payload?.record?.status === 'completed' &&
            images.length > 0 &&
            images.every((image) => image.state !== 'pending')
          );
        }),
      60_000,
    );
    const record = (completed['payload'] as { record: { localId: string } }).record;
    const got = await app.invoke('tasks:get', { localId: record.localId });
    type Image = { state: string; file?: string; thumbnail?: string; thumbnailPending?: true };
    const item = (got.value as { record: { images: Image[] } }).record;
    expect(item.images.map((image) => image.state)).toEqual(['saved']);
    const gallery = path.join(data, 'pictures', 'Pictor');
    const [image] = item.images;
    const file = path.join(gallery, image?.file ?? '');
    expect(await sharp(file).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
    // The packed app carries no image library: its engine is Chromium's image renderer, which
    // this Node boot has not; without it the image is kept sized from its header, its thumbnail
    // pending, never dropped.
    if (image?.thumbnail) {
      const thumbnail = path.join(gallery, image.thumbnail);
      expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp' });
    } else expect(image).toMatchObject({ width: 64, height: 64, thumbnailPending: true });
  }, 90_000);

  it('quits cleanly', async () => {
    app.child.send({ type: 'quit' });
    expect(await app.exited).toBe(0);
    expect(app.messages.filter((message) => message.type === 'error-box')).toEqual([]);
  });
});

describe('the packed app as the pictor command', () => {
  let service: DemoService | undefined;

  beforeAll(async () => {
    service = await startDemoService({ durationMs: { min: 200, max: 400 } });
  });

  afterAll(async () => {
    await service?.close();
  });

  function run(args: string[], dataDir: string): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          TSX,
          '--import',
          HOOKS,
          path.join(appDir, 'dist-electron', 'main.js'),
          ...args,
        ],
        {
          cwd: appDir,
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: dataDir,
            PICTOR_BOOT_DIR: dataDir,
            SERVICE_API_KEY: 'demo',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
  }

  it('prints its help as pictor', async () => {
    const data = await mkdtemp(path.join(work, 'cli-'));
    const { code, out } = await run(['help'], data);
    expect(code, out).toBe(0);
    expect(out).toMatch(/generate --base-url URL --prompt TEXT/);
  });

  it('generates on the demo service and lists the task, in the app’s library', async () => {
    const data = await mkdtemp(path.join(work, 'cli-'));
    const common = [
      '--base-url',
      service?.url ?? '',
      '--data-dir',
      path.join(data, 'library'),
      '--gallery-dir',
      path.join(data, 'g'),
    ];
    const made = await run(
      ['generate', '--prompt', 'from the packed cli', '--size', '64x64', '--json', ...common],
      data,
    );
    expect(made.code, made.out).toBe(0);
    const json = made.out.split('\n').find((text) => text.startsWith('{')) ?? '{}';
    const line = JSON.parse(json) as {
      status?: string;
      images?: { state: string; path?: string; width?: number }[];
    };
    expect(line.status).toBe('completed');
    expect(line.images?.map((image) => image.state)).toEqual(['saved']);
    // No image library in the packed app and no other engine given: checked from its header,
    // sized, its thumbnail left for the app, and said once.
    expect(line.images?.[0]?.width).toBe(64);
    expect(made.out.match(/saved without a thumbnail/g)).toHaveLength(1);
    const listed = await run(['list', ...common.slice(2)], data);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toMatch(/from the packed cli/);
  }, 90_000);
});

describe('a start-up that fails', () => {
  it('says so in an error box and exits 1, instead of running on with no window', async () => {
    const data = await mkdtemp(path.join(work, 'unusable-'));
    // The data folder cannot be made: a file stands where it goes.
    await writeFile(path.join(data, 'userData'), 'not a folder');
    const app = boot(appDir, data);
    expect(await app.exited).toBe(1);
    const box = app.messages.find((message) => message.type === 'error-box');
    expect(box?.['title']).toBe('Pictor could not start');
    expect(app.messages.filter((message) => message.type === 'window')).toEqual([]);
  }, 60_000);
});

describe('the boot test itself', () => {
  it('fails when a module the packed app needs is missing from the packed files', async () => {
    const broken = path.join(work, 'broken-app');
    await cp(appDir, broken, { recursive: true });
    await rm(path.join(broken, 'node_modules', 'zod'), { recursive: true, force: true });
    const data = await mkdtemp(path.join(work, 'broken-data-'));
    const app = boot(broken, data);
    const code = await app.exited;
    expect(code).not.toBe(0);
    expect(app.output.join('')).toMatch(/Cannot find package 'zod'/);
    expect(app.messages.filter((message) => message.type === 'window')).toEqual([]);
  }, 60_000);

  it('fails when the runtime is published and the window opened before the IPC handlers exist', async () => {
    const misordered = path.join(work, 'misordered-app');
    await cp(appDir, misordered, { recursive: true });
    const main = path.join(misordered, 'dist-electron', 'main.js');
    const bundle = await readFile(main, 'utf8');
    // start()'s last two steps, moved to just before the app is wired and its handlers
    // registered (protocols stay first).
    const publish = '    runtime = started;\n    openWindow();\n';
    const bind = '    const wiring = wired.add(wireApp(';
    expect(bundle.split(publish)).toHaveLength(2);
    expect(bundle.split(bind)).toHaveLength(2);
    await writeFile(main, bundle.replace(publish, '').replace(bind, publish + bind));
    const data = await mkdtemp(path.join(work, 'misordered-data-'));
    const app = boot(misordered, data);
    try {
      const window = await app.until((all) => all.find((message) => message.type === 'window'));
      expect(missingAtLoad(window)).toEqual([...REQUEST_CHANNEL_NAMES]);
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 60_000);
});
