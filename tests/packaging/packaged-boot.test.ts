/**
 * The packaged app boots: every release target (macOS x64 and arm64, Windows x64, Linux x64)
 * packed by electron-builder (stand-in Electron), its app.asar extracted with the unpacked files
 * beside it into a folder outside the repository, and its main bundle run by plain `node` (no
 * tsx) as a packaged app starts (argv `[binary, …args]`, no `defaultApp`), with `electron`
 * resolved to a strict recording stand-in (boot/electron-stand-in.mjs): an Electron call it does
 * not model fails the boot. Nothing else comes from the repository, so a module the packed app
 * needs and does not carry fails too. Driven over the child's IPC channel: start-up to a window
 * and a clean quit for each target; on Linux one generation on the built-in demo service through
 * the IPC handlers (downloaded, checked and thumbnailed through the packed app's image renderer,
 * whose page the stand-in runs on sharp: boot/image-page-stand-in.mjs). Then the same files as
 * the `pictor` command line (help, self-test, generate, list), with the app's image engine, and
 * once more with an image renderer that cannot start, which `self-test` must fail on.
 *
 * The targets' packs carry the same app.asar, extracted once for all of them, and the two macOS
 * targets (as Windows and Linux) the same resources folder byte for byte: such a target's `help`
 * and `self-test` run once, for the first of them; the others check that their files are exactly
 * those (packed-digest.ts). Each target is still booted from its own resources folder.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import asar from '@electron/asar';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HISTORY_FILE } from '../../electron/core/pictor-core';
import { HistoryStore } from '../../electron/core/history/history-store';
import { startDemoService } from '../../electron/demo-service/server';
import type { DemoService } from '../../electron/demo-service/types';
import { REQUEST_CHANNEL_NAMES } from '../../shared/ipc/channels';
import { QUICK_POLL } from '../support/quick-demo';
import { RECORD_CREATED, makeTaskRecord } from '../support/task-records';
import { mirror } from './mirror';
import { firstWithSameDigest, isAppEntry, treeDigest } from './packed-digest';
import { sharedPacks } from './shared-packs';
import { RELEASE_TARGETS, resourcesDir, targetName, type Target } from './stand-in-targets';
import { removeFolder, tempFolder } from '../support/temp-folders';
import { bareEnv } from '../support/child-env';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The run's test build (global-setup.ts), which is what gets packed. */
const BUILD_ROOT = inject('pictorTestBuild');
const HOOKS = pathToFileURL(path.join(ROOT, 'tests/packaging/boot/resolve-electron.mjs')).href;
const APP_URL = 'pictor-app://app/index.html';

interface Message {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** A target's packed files, extracted: the app folder and its resources folder. */
interface Packed {
  readonly appDir: string;
  readonly resources: string;
  /** Its resources folder's digest (packed-digest.ts). */
  readonly digest: string;
  /** The first target (RELEASE_TARGETS' order) whose packed files are these, byte for byte. */
  readonly sameFilesAs: string;
}

/**
 * The built-in demo's tasks take 200 ms and the app looks every 100 ms (its environment's knobs,
 * app-environment.ts, read by the packed app as by any), not the demo's 3 to 8 s and the app's
 * own interval: the generation test waited on those, which were most of its time. What it checks
 * (the task completed, its image downloaded, checked and thumbnailed by the packed app) is the same.
 */
const QUICK_DEMO = { PICTOR_DEMO_DURATION_MS: '200', PICTOR_POLL_INTERVAL_MS: '100' };

let work = '';
const packed = new Map<string, Packed>();
const LINUX: Target = { os: 'linux', arch: 'x64' };

/** One change of a `tasks:updated` message, as far as the boot test reads it. */
interface PageChange {
  readonly change: string;
  readonly record?: {
    readonly localId: string;
    readonly status?: string;
    readonly images?: readonly { readonly state: string }[];
  };
}

/** A task completed with every image downloaded and checked (none still pending). */
function isSavedCompletion(change: PageChange): boolean {
  const images = change.record?.images ?? [];
  return (
    change.record?.status === 'completed' &&
    images.length > 0 &&
    images.every((image) => image.state !== 'pending')
  );
}

function packedFor(target: Target): Packed {
  const found = packed.get(targetName(target));
  if (!found) throw new Error(`${targetName(target)} was not packed (see beforeAll's error).`);
  return found;
}

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

  /**
   * Sends `message` to the packed app; a closed channel (the app has exited) fails the test that
   * sent it with the app's output, instead of being thrown later at the test run.
   */
  async send(message: Record<string, unknown>): Promise<void> {
    const sent = new Promise<Error | null>((resolve) => {
      if (!this.child.connected) resolve(new Error('its channel is closed'));
      else this.child.send(message, (error) => resolve(error));
    });
    const error = await sent;
    if (error) {
      throw new Error(
        `could not send ${String(message['type'])} to the packed app (exit ${this.child.exitCode}): ${error.message}\n${this.output.join('').slice(-3000)}`,
      );
    }
  }

  async invoke(channel: string, input?: unknown): Promise<{ ok: boolean; value?: unknown }> {
    const id = this.nextId++;
    await this.send({ type: 'invoke', id, channel, input });
    const result = await this.until((all) =>
      all.find((message) => message.type === 'result' && message['id'] === id),
    );
    return result['value'] as { ok: boolean; value?: unknown };
  }
}

function boot(
  files: Packed,
  dataDir: string,
  app = files.appDir,
  args: string[] = [],
  env: Record<string, string> = {},
): Boot {
  const child = fork(path.join(app, 'dist-electron', 'main.js'), args, {
    cwd: app,
    execArgv: ['--import', HOOKS],
    env: bareEnv({
      HOME: dataDir,
      TMPDIR: dataDir,
      PICTOR_BOOT_DIR: dataDir,
      PICTOR_BOOT_APP: app,
      PICTOR_BOOT_RESOURCES: files.resources,
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return new Boot(child);
}

/** Contract channels with no handler yet when the window started loading (the stand-in's report). */
function missingAtLoad(window: Message): string[] {
  const registered = new Set(window['channels'] as string[]);
  return REQUEST_CHANNEL_NAMES.filter((channel) => !registered.has(channel));
}

/**
 * Each target's files only: app.asar extracted (unpacked files included) outside the repo, once
 * for the targets whose app.asar and unpacked files are equal byte for byte (packed-digest.ts:
 * the app folder extracted from equal files is equal; electron-builder packs one app.asar for
 * every target, and a 42 MB extraction was seconds of the file's set-up), each target with its
 * own resources folder.
 */
async function extractPacks(resourcesOf: (target: Target) => string): Promise<void> {
  const names = RELEASE_TARGETS.map(targetName);
  const digests = new Map<string, string>();
  const appDigests = new Map<string, string>();
  for (const target of RELEASE_TARGETS) {
    const { all, part } = await treeDigest(resourcesOf(target), isAppEntry);
    digests.set(targetName(target), all);
    appDigests.set(targetName(target), part);
  }
  const firstOf = firstWithSameDigest(names, digests);
  const firstApp = firstWithSameDigest(names, appDigests);
  for (const target of RELEASE_TARGETS) {
    const name = targetName(target);
    const sameFilesAs = firstOf.get(name)!;
    const resources = resourcesOf(target);
    const appDir = path.join(work, `app-${firstApp.get(name)!}`);
    if (firstApp.get(name) === name) asar.extractAll(path.join(resources, 'app.asar'), appDir);
    packed.set(name, { appDir, resources, digest: digests.get(name)!, sameFilesAs });
  }
}

beforeAll(async () => {
  work = await tempFolder('boot');
  // Packed once for every file that reads them (shared-packs.ts).
  const packs = await sharedPacks(RELEASE_TARGETS, {
    buildRoot: BUILD_ROOT,
    packsDir: inject('pictorPacks'),
  });
  await extractPacks((target) => resourcesDir(target, packs(target).appOut));
}, 400_000);

afterAll(async () => {
  if (work) await removeFolder(work);
});

/** The names of Electron calls the stand-in had to refuse. */
function unmodelled(app: Boot): string[] {
  return app.messages
    .filter((message) => message.type === 'unmodelled')
    .map((message) => String(message['name']));
}

describe.each(RELEASE_TARGETS.map((target) => ({ ...target, name: targetName(target) })))(
  'the $name packed app, booted',
  (target) => {
    let app: Boot;
    let files: Packed;
    let data = '';

    beforeAll(async () => {
      files = packedFor(target);
      data = await mkdtemp(path.join(work, `data-${targetName(target)}-`));
      app = boot(files, data, undefined, [], QUICK_DEMO);
    });

    afterAll(() => {
      if (app.child.exitCode === null) app.child.kill('SIGKILL');
    });

    it('is outside the repository, so nothing resolves from the repository’s node_modules', () => {
      expect(path.relative(ROOT, files.appDir).startsWith('..')).toBe(true);
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
      expect(preload.startsWith(files.appDir)).toBe(true);
      expect((await stat(preload)).isFile()).toBe(true);
    });

    it('has a handler for every request channel before its window starts loading', async () => {
      const window = await app.until((all) => all.find((message) => message.type === 'window'));
      expect(missingAtLoad(window)).toEqual([]);
      const channels = await app.until((all) =>
        all.findLast((message) => message.type === 'channels'),
      );
      expect([...(channels['names'] as string[])].sort()).toEqual(
        [...REQUEST_CHANNEL_NAMES].sort(),
      );
    });

    // One generation is enough to run the packed app's image path; the Linux files are the ones here.
    if (target.os === 'linux')
      it('generates one image on the built-in demo service, saved with its thumbnail', async () => {
        await app.until((all) => all.find((message) => message.type === 'channels'));
        const info = await app.invoke('app:getInfo');
        expect(info).toMatchObject({ ok: true, value: { demo: true } });
        const submitted = await app.invoke('tasks:submit', {
          request: { prompt: 'packaged boot', size: '64x64' },
          target: { provider: 'pictor', endpoint: 'demo:' },
          count: 1,
        });
        expect(submitted, JSON.stringify(submitted)).toMatchObject({ ok: true });
        // Completed, then its image downloaded and checked by the packed app's image engine.
        const completed = await app.until(
          (all) =>
            all.find((message) => {
              if (message.type !== 'event' || message['channel'] !== 'tasks:updated') return false;
              return (message['payload'] as PageChange[]).some(isSavedCompletion);
            }),
          60_000,
        );
        const record = (completed['payload'] as PageChange[]).find(isSavedCompletion)!.record!;
        const got = await app.invoke('tasks:get', { localId: record.localId });
        type Image = { state: string; file?: string; thumbnail?: string; thumbnailPending?: true };
        const item = (got.value as { record: { images: Image[] } }).record;
        expect(item.images.map((image) => image.state)).toEqual(['saved']);
        const gallery = path.join(data, 'pictures', 'Pictor');
        const [image] = item.images;
        const file = path.join(gallery, image?.file ?? '');
        expect(await sharp(file).metadata()).toMatchObject({
          format: 'png',
          width: 64,
          height: 64,
        });
        // The packed app carries no image library: its engine is Chromium's image renderer, here
        // the stand-in's page; the thumbnail came back through the packed app's checks.
        expect(app.messages.filter((message) => message.type === 'image-window')).toHaveLength(1);
        expect(image?.thumbnailPending).toBeUndefined();
        const thumbnail = path.join(gallery, image?.thumbnail ?? 'none');
        expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp' });
      }, 90_000);

    // Linux: its window closed as a user closes it, with the image renderer's hidden window still
    // open from the generation (Electron counts hidden windows: its own rule would keep the app).
    it(
      target.os === 'linux'
        ? 'quits when its window closes, though the image renderer’s hidden window is open'
        : 'quits cleanly, having made no Electron call the stand-in does not model',
      async () => {
        if (target.os === 'linux') {
          await app.send({ type: 'close-window' });
          const closing = await app.until((all) => all.find((m) => m.type === 'closing'));
          expect(closing['open']).toEqual([
            APP_URL,
            expect.stringMatching(/^pictor-app:\/\/images\//),
          ]);
        } else await app.send({ type: 'quit' });
        expect(await app.exited).toBe(0);
        expect(app.messages.filter((message) => message.type === 'will-quit')).toHaveLength(1);
        expect(app.messages.filter((message) => message.type === 'error-box')).toEqual([]);
        expect(unmodelled(app).join(', ')).toBe('');
      },
    );
  },
);

describe('the packaged app started with a debugger switch', () => {
  const SWITCHES = [
    '--remote-debugging-port=9222',
    '--remote-debugging-pipe',
    '--inspect=9229',
    '--inspect-brk',
    '--js-flags=--allow-natives-syntax',
  ];

  // One start with every switch (each one's refusal alone is debugger-switches.test.ts's, in
  // process): the line names each, so a switch the packed guard missed is missing from it. Five
  // starts of the packed bundle proved the same guard five times, at ~0.4 s of CPU each.
  it('refuses every one of them, named on a line on stderr, exit 2, before anything starts', async () => {
    const data = await mkdtemp(path.join(work, 'debugger-'));
    // Its environment cannot make it a test build: that is fixed in the bundle.
    const app = boot(packedFor(LINUX), data, undefined, SWITCHES, { PICTOR_TEST_BUILD: '1' });
    expect(await app.exited).toBe(2);
    const names = SWITCHES.map((arg) => arg.split('=')[0] ?? arg);
    expect(app.output.join('')).toContain(
      `Pictor: refused ${names.join(', ')}: the installed app does not`,
    );
    expect(app.messages).toEqual([]);
    expect(await readdir(data)).toEqual([]);
  }, 60_000);

  it('refuses one after a pictor command too', async () => {
    const data = await mkdtemp(path.join(work, 'debugger-cli-'));
    const { code, out } = await runCommand(LINUX, ['list', '--remote-debugging-port=1'], data);
    expect(code).toBe(2);
    expect(out).toContain('Pictor: refused --remote-debugging-port');
  }, 60_000);
});

/** Runs the packed files of `target` as `pictor <args>`, as the packaged binary would. */
function runCommand(
  target: Target,
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; stdout: string }> {
  const files = packedFor(target);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', HOOKS, path.join(files.appDir, 'dist-electron', 'main.js'), ...args],
      {
        cwd: files.appDir,
        env: bareEnv({
          HOME: dataDir,
          TMPDIR: dataDir,
          PICTOR_BOOT_DIR: dataDir,
          PICTOR_BOOT_APP: files.appDir,
          PICTOR_BOOT_RESOURCES: files.resources,
          ...env,
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => ((out += chunk.toString()), (stdout += chunk)));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out, stdout }));
  });
}

/** The `pictor` runs that passed, as `target:command`, for the targets with the same files. */
const passed = new Set<string>();

/**
 * Whether `target`'s files are an earlier target's, byte for byte, whose `command` passed above:
 * running them again would run the same bytes with the same inputs (packed-digest.ts).
 */
function ranAsSameFiles(target: Target, command: string): boolean {
  const files = packedFor(target);
  if (files.sameFilesAs === targetName(target)) return false;
  const first = packed.get(files.sameFilesAs);
  expect(first?.digest, `${targetName(target)}'s files are ${files.sameFilesAs}'s`).toBe(
    files.digest,
  );
  expect(passed, `${files.sameFilesAs}'s ${command} passed`).toContain(
    `${files.sameFilesAs}:${command}`,
  );
  return true;
}

describe.each(RELEASE_TARGETS.map((target) => ({ ...target, name: targetName(target) })))(
  'the $name packed app as the pictor command',
  (target) => {
    it('prints its help as pictor (or carries the files of a target that did)', async () => {
      if (ranAsSameFiles(target, 'help')) return;
      const data = await mkdtemp(path.join(work, 'cli-'));
      const { code, out } = await runCommand(target, ['help'], data);
      expect(code, out).toBe(0);
      expect(out).toMatch(/generate "PROMPT" \[--provider ID\] \[--base-url URL\]/);
      passed.add(`${targetName(target)}:help`);
    });

    it('self-test: the packed history, FTS5 search, image renderer (each format, the signed sample), worker verifier, XMP, trust list and safeStorage pass; one JSON line, exit 0 (or carries the files of a target where it did)', async () => {
      if (ranAsSameFiles(target, 'self-test')) return;
      const data = await mkdtemp(path.join(work, 'self-test-'));
      const { code, out, stdout } = await runCommand(target, ['self-test'], data);
      const report = selfTestReport(stdout, out);
      expect(report.version).toBe('0.0.0-boot');
      expect(report.encryption).toMatchObject({ state: 'available' });
      expect(report.imageEngine).toBe('chromium');
      expect(stepResults(report)).toEqual({
        history: true,
        'image-png': true,
        'image-jpeg': true,
        'image-webp': true,
        xmp: true,
        credentials: true,
        'c2pa-renderer': true,
        'c2pa-worker': true,
        encryption: true,
      });
      expect(code, out).toBe(0);
      // Its temporary folder is gone.
      expect((await readdir(data)).filter((name) => name.startsWith('pictor-self-test-'))).toEqual(
        [],
      );
      passed.add(`${targetName(target)}:self-test`);
    });
  },
);

interface SelfTestLine {
  readonly ok: boolean;
  readonly failed?: string;
  readonly version: string;
  readonly imageEngine: string;
  readonly encryption: unknown;
  readonly steps: { step: string; ok: boolean; error?: string }[];
}

/** The one JSON line `pictor self-test` printed. */
function selfTestReport(stdout: string, out: string): SelfTestLine {
  const lines = stdout.trim().split('\n');
  expect(lines, out).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as SelfTestLine;
}

function stepResults(report: SelfTestLine): Record<string, true | string> {
  return Object.fromEntries(report.steps.map((step) => [step.step, step.ok || (step.error ?? '')]));
}

describe('the linux-x64 packed app as the pictor command', () => {
  let service: DemoService | undefined;

  beforeAll(async () => {
    service = await startDemoService({ durationMs: { min: 200, max: 400 } });
  });

  afterAll(async () => {
    await service?.close();
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
    const key = { SERVICE_API_KEY: 'demo' };
    const made = await runCommand(
      LINUX,
      [
        'generate',
        '--prompt',
        'from the packed cli',
        '--size',
        '64x64',
        '--json',
        ...QUICK_POLL,
        ...common,
      ],
      data,
      key,
    );
    expect(made.code, made.out).toBe(0);
    const line = JSON.parse(made.stdout.trim().split('\n').at(-1) ?? '{}') as {
      status?: string;
      images?: { state: string; path?: string; width?: number }[];
    };
    expect(line.status).toBe('completed');
    expect(line.images?.map((image) => image.state)).toEqual(['saved']);
    // The app's image engine: the thumbnail made through the image renderer, nothing pending.
    expect(line.images?.[0]?.width).toBe(64);
    expect(made.out).not.toMatch(/saved without a thumbnail/);
    const thumbnails = (await readdir(path.join(data, 'g'), { recursive: true })).filter((file) =>
      /\.thumbs[/\\]image-1\.webp$/.test(String(file)),
    );
    expect(thumbnails).toHaveLength(1);
    const listed = await runCommand(LINUX, ['list', ...common.slice(2)], data, key);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toMatch(/from the packed cli/);
  }, 90_000);

  it('generates with its thumbnail left for the app when the image renderer cannot start, saying so once', async () => {
    const data = await mkdtemp(path.join(work, 'cli-'));
    const made = await runCommand(
      LINUX,
      [
        'generate',
        '--prompt',
        'no renderer',
        '--size',
        '64x64',
        '--json',
        ...QUICK_POLL,
        '--base-url',
        service?.url ?? '',
        '--data-dir',
        path.join(data, 'library'),
        '--gallery-dir',
        path.join(data, 'g'),
      ],
      data,
      { SERVICE_API_KEY: 'demo', PICTOR_BOOT_IMAGE_PAGE: 'fails-to-load' },
    );
    expect(made.code, made.out).toBe(0);
    const line = JSON.parse(made.stdout.trim().split('\n').at(-1) ?? '{}') as {
      images?: { state: string; width?: number }[];
    };
    expect(line.images).toMatchObject([{ state: 'saved', width: 64 }]);
    expect(made.out.match(/saved without a thumbnail/g)).toHaveLength(1);
    expect(made.out).toMatch(/the image renderer cannot start/);
  }, 90_000);

  it('writes every row to a reader slower than the command before the app exits', async () => {
    // 2,000 JSON rows (over 800 KB, more than the pipe's 64 KiB) wait in stdout's queue while the
    // page's "more" line, the command's last, reaches stderr; only then does the reader start.
    // app.exit ends the process at once: what was still queued was lost.
    const data = await mkdtemp(path.join(work, 'cli-'));
    const library = path.join(data, 'library');
    await mkdir(library, { mode: 0o700 });
    const store = HistoryStore.open(path.join(library, HISTORY_FILE));
    try {
      store.putMany(
        Array.from({ length: 3_000 }, (_, index) =>
          makeTaskRecord(
            {
              localId: `5e0a7e11-0000-4000-8000-${String(index).padStart(12, '0')}`,
              taskId: `slow-${index}`,
              request: { prompt: `A prompt long enough for row ${index} of a slow reader` },
              status: 'failed',
              error: { kind: 'task_failed', message: 'The service could not make this image.' },
            },
            RECORD_CREATED + index * 1_000,
          ),
        ),
      );
    } finally {
      store.close();
    }
    const files = packedFor(LINUX);
    const child = spawn(
      process.execPath,
      [
        '--import',
        HOOKS,
        path.join(files.appDir, 'dist-electron', 'main.js'),
        ...['list', '--limit', '2000', '--json', '--data-dir', library],
      ],
      {
        cwd: files.appDir,
        env: bareEnv({
          HOME: data,
          TMPDIR: data,
          PICTOR_BOOT_DIR: data,
          PICTOR_BOOT_APP: files.appDir,
          PICTOR_BOOT_RESOURCES: files.resources,
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.pause();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let said = '';
    await new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        said += chunk;
        if (said.includes('--cursor')) resolve();
      }),
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const ended = new Promise((resolve) => child.stdout.once('end', resolve));
    child.stdout.resume();
    expect(await exited, said).toBe(0);
    await ended;
    const rows = stdout.split('\n').filter(Boolean);
    expect(rows).toHaveLength(2_000);
    expect(JSON.parse(rows.at(-1) ?? '{}')).toMatchObject({ taskId: 'slow-1000' });
  }, 90_000);
});

describe('pictor self-test, on the faults it exists to catch', () => {
  it('fails at the image and renderer steps, exit 1, when the packed app’s image renderer cannot start', async () => {
    const data = await mkdtemp(path.join(work, 'self-test-broken-'));
    const { code, out, stdout } = await runCommand(LINUX, ['self-test'], data, {
      PICTOR_BOOT_IMAGE_PAGE: 'fails-to-load',
    });
    const report = selfTestReport(stdout, out);
    expect(report).toMatchObject({ ok: false, failed: 'image-png', imageEngine: 'header-only' });
    expect(stepResults(report)).toEqual({
      history: true,
      'image-png': expect.stringMatching(/header-only image engine made no PNG thumbnail/),
      'image-jpeg': expect.stringMatching(/header-only image engine made no JPEG thumbnail/),
      'image-webp': expect.stringMatching(/header-only image engine made no WEBP thumbnail/),
      xmp: true,
      credentials: true,
      'c2pa-renderer': expect.stringMatching(/image renderer/),
      // The worker thread verifies where the renderer cannot: the app's fallback holds.
      'c2pa-worker': true,
      encryption: true,
    });
    expect(code).toBe(1);
    // Why, on stderr: the renderer's page never loaded.
    expect(out).toMatch(/the image renderer cannot start.*its page did not load/);
    expect(out).toMatch(/Self-test failed at image-png/);
  }, 60_000);
});

describe('a start-up whose keychain has not answered (a prompt nobody sees)', () => {
  it('opens its window, its handlers in place, the keys saying they wait', async () => {
    const data = await mkdtemp(path.join(work, 'keychain-'));
    const app = boot(packedFor(LINUX), data, undefined, [], {
      PICTOR_BOOT_KEYCHAIN: 'never-answers',
    });
    try {
      const window = await app.until((all) => all.find((message) => message.type === 'window'));
      expect(missingAtLoad(window)).toEqual([]);
      const keys = await app.invoke('keys:getStatuses');
      expect(keys).toMatchObject({ ok: true, value: { pictor: { state: 'not_ready' } } });
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a start-up that fails', () => {
  it('says so in an error box and exits 1, instead of running on with no window', async () => {
    const data = await mkdtemp(path.join(work, 'unusable-'));
    // The data folder cannot be made: a file stands where it goes.
    await writeFile(path.join(data, 'userData'), 'not a folder');
    const app = boot(packedFor(LINUX), data);
    expect(await app.exited).toBe(1);
    const box = app.messages.find((message) => message.type === 'error-box');
    expect(box?.['title']).toBe('Pictor could not start');
    expect(app.messages.filter((message) => message.type === 'window')).toEqual([]);
  }, 60_000);
});

/**
 * A copy of the linux-x64 packed app to break: its main bundle's folder (dist-electron) copied,
 * every other entry a link to the pack's (mirror.ts), the folders along `open` made so an entry
 * there can be removed. The bundle is a real file of the copy, so Node resolves what it imports
 * from the copy's folders, as from a packed app's; copying the whole app (node_modules included)
 * took most of each of these tests.
 */
async function appCopy(name: string, open: readonly string[] = []): Promise<string> {
  const from = packedFor(LINUX).appDir;
  const copy = path.join(work, name);
  await mirror(from, copy, open);
  await rm(path.join(copy, 'dist-electron'));
  await cp(path.join(from, 'dist-electron'), path.join(copy, 'dist-electron'), { recursive: true });
  return copy;
}

/**
 * A copy of the linux-x64 packed app whose main bundle `edit` changed: the one file of the split
 * build (main.js or a chunk beside it) that holds `anchor`.
 */
async function editedCopy(
  name: string,
  anchor: string,
  edit: (bundle: string) => string,
): Promise<string> {
  const copy = await appCopy(name);
  const folder = path.join(copy, 'dist-electron');
  const scripts = (await readdir(folder)).filter((file) => file.endsWith('.js'));
  const holders: string[] = [];
  for (const file of scripts)
    if ((await readFile(path.join(folder, file), 'utf8')).includes(anchor)) holders.push(file);
  expect(holders).toHaveLength(1);
  const bundle = path.join(folder, holders[0]!);
  await writeFile(bundle, edit(await readFile(bundle, 'utf8')));
  return copy;
}

describe('the boot test itself', () => {
  it('fails when a module the packed app needs is missing from the packed files', async () => {
    const broken = await appCopy('broken-app', ['node_modules']);
    // The settings' store, imported at boot (zod is inlined in the bundle: build-electron.ts).
    await rm(path.join(broken, 'node_modules', 'electron-store'));
    const data = await mkdtemp(path.join(work, 'broken-data-'));
    const app = boot(packedFor(LINUX), data, broken);
    const code = await app.exited;
    expect(code).not.toBe(0);
    expect(app.output.join('')).toMatch(/Cannot find package 'electron-store'/);
    expect(app.messages.filter((message) => message.type === 'window')).toEqual([]);
  }, 60_000);

  it('fails when the packed app reads its command line in the development layout', async () => {
    // `electron .` puts the app's path in argv[1] and sets defaultApp; a packaged app has neither.
    // A main that assumed the development layout would pass under `electron .`, not here.
    const devLayout = await editedCopy('dev-argv-app', 'Boolean(process.defaultApp)', (bundle) => {
      expect(bundle.split('Boolean(process.defaultApp)')).toHaveLength(2);
      return bundle.replace('Boolean(process.defaultApp)', 'true');
    });
    const data = await mkdtemp(path.join(work, 'dev-argv-data-'));
    const app = boot(packedFor(LINUX), data, devLayout, ['help']);
    try {
      // `pictor help` opens the app's window instead of printing the help.
      await app.until((all) => all.find((message) => message.type === 'window'));
      expect(app.output.join('')).not.toMatch(
        /generate "PROMPT" \[--provider ID\] \[--base-url URL\]/,
      );
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 60_000);

  it('fails when start-up makes an Electron call the stand-in does not model', async () => {
    // What a new line in start-up (host/desktop-start.ts) would do: a call of Electron's API the
    // stand-in never saw.
    const anchor = '  await ensurePrivateFolder(userData);\n';
    const unknown = await editedCopy('unmodelled-app', anchor, (bundle) => {
      expect(bundle.split(anchor)).toHaveLength(2);
      // Electron's `app` as the bundler named it in that module (`app`, `app2`…).
      const [, app] =
        /(\w+)\.getPath\("userData"\);\n {2}await ensurePrivateFolder/.exec(bundle) ?? [];
      expect(app).toMatch(/^app\d*$/);
      return bundle.replace(anchor, `${anchor}  ${app}.setAboutPanelOptions({});\n`);
    });
    const app = boot(packedFor(LINUX), await mkdtemp(path.join(work, 'unmodelled-data-')), unknown);
    expect(await app.exited).toBe(1);
    expect(unmodelled(app)).toEqual(['app.setAboutPanelOptions']);
    expect(app.messages.find((message) => message.type === 'error-box')?.['content']).toMatch(
      /does not model app\.setAboutPanelOptions/,
    );
    expect(app.messages.filter((message) => message.type === 'window')).toEqual([]);
  }, 60_000);

  it('fails when the runtime is published and the window opened before the IPC handlers exist', async () => {
    // Start-up's last two steps (host/desktop-start.ts), moved to just before the app is wired
    // and its handlers registered (protocols stay first).
    const publish = '  host.window.ready(runtime.settings);\n  host.window.open();\n';
    const bind = '  const wiring = wired.add(wireApp(';
    const misordered = await editedCopy('misordered-app', publish, (bundle) => {
      expect(bundle.split(publish)).toHaveLength(2);
      expect(bundle.split(bind)).toHaveLength(2);
      return bundle.replace(publish, '').replace(bind, publish + bind);
    });
    const app = boot(
      packedFor(LINUX),
      await mkdtemp(path.join(work, 'misordered-data-')),
      misordered,
    );
    try {
      const window = await app.until((all) => all.find((message) => message.type === 'window'));
      expect(missingAtLoad(window)).toEqual([...REQUEST_CHANNEL_NAMES]);
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 60_000);
});
