/**
 * A quit leaves no write behind. The page may still ask while the app quits, and a handler may
 * reach the core only once its close has passed the engine: a rating asked for after the engine's
 * stop had written the last sidecars had its task's sidecar written then, by no one waited for,
 * into a library being put away (a wired test's teardown once found `gallery/.pictor-tmp` made
 * again while it removed the folder: ENOTEMPTY). Every writer of the core now
 * passes one closing gate (electron/core/base/closing-gate.ts): a user's change is refused with
 * "Pictor is closing" from the close's first moment, a file write once the engine has stopped and
 * the writes under way have ended; nothing starts after the close resolved.
 *
 * The app's real main (wired-ipc.ts: the runtime, the app's wiring, the page's calls through the
 * bridge) against the built-in demo, closed as every wired test's teardown closes it (the quit's
 * own close of the runtime, then its folders removed); the page's call is made at the step of the
 * close the test names (the engine stopped), and awaited there, so its writes come exactly then.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEMP_DIR } from '../../../electron/core/fs';
import { pngChunk } from '../../../electron/core/gallery';
import { GalleryMoveCancelled } from '../../../electron/core/library';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { DEMO_TARGET } from '../../support/submit-target';
import { wiredIpc, type WiredIpc, type WiredIpcOptions } from '../../support/wired-ipc';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The wired main with one demo task completed, its image saved in the gallery. */
async function mainWithImage(
  options: Omit<WiredIpcOptions, 'prefix'> = {},
): Promise<{ main: WiredIpc; task: TaskRecord }> {
  const main = await wiredIpc(cleanups, { prefix: 'pictor-close-write-', ...options });
  const { engine } = main.runtime.core;
  const [made] = await engine.submit({ prompt: 'kept at quit', size: '64x64' }, DEMO_TARGET);
  const [task] = await engine.whenSettled([made!.localId]);
  expect(task?.images[0]?.state).toBe('saved');
  return { main, task: task! };
}

/**
 * The wired main of {@link mainWithImage}, its library's dialogs wired, whose stand-in open dialog
 * answers the file `name` in the test's own folder (the environment variable `dialog` names it to
 * main): `contents` as JSON, written once the main, and so its folder, is made.
 */
async function mainOpening(dialog: string, name: string, contents: unknown): Promise<WiredIpc> {
  let picked = '';
  const { main } = await mainWithImage({
    env: () => ({ [dialog]: picked }),
    wiring: (os) => ({ library: { dialogs: os.libraryDialogs, version: '0.0.0-test' } }),
  });
  picked = join(main.dir, name);
  writeFileSync(picked, JSON.stringify(contents));
  return main;
}

/**
 * The gallery's sidecar writes, each with the step of the close it started in (`now()` at its
 * start): `open` until the test's close has begun a step.
 */
function sidecarWrites(main: WiredIpc, now: () => string): string[] {
  const { gallery } = main.runtime.core;
  const started: string[] = [];
  for (const name of ['writeSidecar', 'writeTriage'] as const) {
    const write = gallery[name].bind(gallery);
    vi.spyOn(gallery, name).mockImplementation((record) => {
      started.push(`${name} (${now()})`);
      return write(record);
    });
  }
  return started;
}

/** Runs `then` once `object[method]` (a step of the close) has ended, before the close goes on. */
function after(object: object, method: string, then: () => Promise<unknown>): void {
  const steps = object as Record<string, () => unknown>;
  const step = steps[method]!.bind(object);
  steps[method] = async () => {
    await step();
    await then();
  };
}

/**
 * The wired main closed as every wired test's teardown closes it (wired-ipc.ts): the wiring, the
 * runtime, the answers still in flight, then its folders removed.
 */
async function teardown(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

describe('a quit while the page still asks', () => {
  it('refuses a rating asked for once the engine stopped: no sidecar write starts after the stop', async () => {
    const { main, task } = await mainWithImage();
    let step = 'open';
    const started = sidecarWrites(main, () => step);
    let answer: unknown;
    after(main.runtime.core.engine, 'stop', async () => {
      step = 'engine stopped';
      // A handler at work as the app quit, reaching the core only now. A small change answers
      // once its tasks are announced, their sidecars asked for; the close's later steps (the
      // history worker's end) take long enough for those writes to start (on a loaded machine).
      answer = await main.request('triage:apply', {
        images: [{ localId: task.localId, index: 0 }],
        change: { kind: 'rating', rating: 4 },
      });
      await main.runtime.core.engine.whenWritten([task.localId]);
    });
    after(main.runtime, 'close', async () => void (step = 'closed'));
    await teardown();
    // Whatever the rating asked for has ended (engine.whenWritten: its sidecar writes).
    await main.runtime.core.engine.whenWritten([task.localId]);
    expect(started.filter((write) => !write.endsWith('(open)'))).toEqual([]);
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'failed', sentence: { key: 'error.library.closing' } },
    });
  });

  it('writes within the close the sidecar of a rating asked for before it', async () => {
    const { main, task } = await mainWithImage();
    let step = 'open';
    const started = sidecarWrites(main, () => step);
    const answer = await main.request('triage:apply', {
      images: [{ localId: task.localId, index: 0 }],
      change: { kind: 'rating', rating: 5 },
    });
    expect(answer).toMatchObject({ ok: true });
    after(main.runtime, 'close', async () => void (step = 'closed'));
    await teardown();
    await main.runtime.core.engine.whenWritten([task.localId]);
    expect(started.length).toBeGreaterThan(0);
    expect(started.filter((write) => write.endsWith('(closed)'))).toEqual([]);
  });
});

/** What every refused change answers through the IPC. */
const CLOSING = {
  ok: false,
  error: { code: 'failed', sentence: { key: 'error.library.closing' } },
};

/**
 * Runs `asked` at the close's first step (the trash's close: asks refused, the engine, the
 * history and file writes still open), the close going on once it ended; returns its result.
 */
async function askedAsTheCloseBegins<T>(main: WiredIpc, asked: () => Promise<T>): Promise<T> {
  let result: { value: T } | undefined;
  after(main.runtime.core.trash, 'close', async () => void (result = { value: await asked() }));
  await teardown();
  if (!result) throw new Error('The close never reached its first step.');
  return result.value;
}

/** The rejection `promise` ends with (null when it resolves). */
function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

/** Resolves once the core's close has begun: its first moment, asks refused. */
function closeBegun(main: WiredIpc): Promise<void> {
  const { core } = main.runtime;
  const close = core.close.bind(core);
  return new Promise((resolve) => {
    core.close = () => {
      const closing = close();
      resolve();
      return closing;
    };
  });
}

/** A ComfyUI workflow in the API format: a prompt and a seed to map. */
const WORKFLOW_GRAPH = {
  '3': { class_type: 'KSampler', inputs: { seed: 5, steps: 20, positive: ['6', 0] } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a lake' } },
};

const sha256 = (path: string): string =>
  createHash('sha256').update(readFileSync(path)).digest('hex');

describe('a change asked once the close has begun', () => {
  it('refuses a submit and a tracked id: nothing stored, nothing sent', async () => {
    const { main } = await mainWithImage();
    const { core } = main.runtime;
    const [submitted, tracked, tasks] = await askedAsTheCloseBegins(main, async () => [
      await main.request('tasks:submit', {
        request: { prompt: 'asked at quit', size: '64x64' },
        target: DEMO_TARGET,
        count: 2,
      }),
      await rejectionOf(core.engine.track('6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b')),
      core.history.count(),
    ]);
    expect(submitted).toMatchObject(CLOSING);
    expect(tracked).toMatchObject({ sentence: { key: 'error.library.closing' } });
    // The one task made before the close: a task is stored before anything is sent.
    expect(tasks).toBe(1);
  });

  it('refuses a star, a retry, a cancel and a stop watching of tasks: the task is as it was', async () => {
    const { main } = await mainWithImage();
    const { core, demo } = main.runtime;
    demo.setFailureRate(1);
    const [made] = await core.engine.submit({ prompt: 'no image' }, DEMO_TARGET);
    const [failed] = await core.engine.whenSettled([made!.localId]);
    expect(failed?.status).toBe('failed');
    const localIds = [failed!.localId];
    const answers = await askedAsTheCloseBegins(main, async () => {
      const asked = [
        await main.request('tasks:setFavouriteMany', { localIds, favourite: true }),
        await main.request('tasks:retryMany', { localIds }),
        await main.request('tasks:cancelMany', { localIds }),
        await main.request('tasks:stopWatching', { localIds }),
      ];
      const { status, favourite } = core.history.get(failed!.localId)!;
      return [...asked, { status, favourite }];
    });
    expect(answers).toMatchObject([
      CLOSING,
      CLOSING,
      CLOSING,
      CLOSING,
      { status: 'failed', favourite: false },
    ]);
  });

  it('refuses a resume, a retry of images and a known task id tracked again: the task is as it was', async () => {
    const { main, task } = await mainWithImage();
    const { core } = main.runtime;
    const { localId } = task;
    const answers = await askedAsTheCloseBegins(main, async () => {
      const asked = [
        await main.request('tasks:resume', { localId }),
        await main.request('tasks:retryImages', { localId }),
        await main.request('tasks:track', { taskId: task.taskId! }),
      ];
      const { status, images } = core.history.get(localId)!;
      return [...asked, { status, images: images.map((image) => image.state) }];
    });
    expect(answers).toMatchObject([
      CLOSING,
      CLOSING,
      CLOSING,
      { status: 'completed', images: ['saved'] },
    ]);
  });

  it('refuses a price, a board, a smart board, a template and a word list: none is written', async () => {
    const { main } = await mainWithImage();
    const { core } = main.runtime;
    const price = { provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 1_000 };
    const answers = await askedAsTheCloseBegins(main, async () => [
      await main.request('costs:setPrice', price as never),
      await main.request('boards:create', { path: 'Asked at quit' }),
      await main.request('smart:create', {
        name: 'Asked at quit',
        rules: { match: 'all', items: [{ kind: 'rating', op: '>=', value: 4 }] },
      }),
      await main.request('templates:save', { name: 'Asked at quit', body: 'a {red|blue} lake' }),
      await main.request('templates:wordList:save', { name: 'colours', words: ['red'] }),
      core.costs.prices(),
      core.boards.list(),
      core.smartBoards.list(),
      core.templates.list(),
      [...core.templates.wordLists().keys()],
    ]);
    expect(answers).toMatchObject([
      CLOSING,
      CLOSING,
      CLOSING,
      CLOSING,
      CLOSING,
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  it('refuses metadata written into files, and a rebuild: the image file is as it was', async () => {
    const { main, task } = await mainWithImage();
    const { core } = main.runtime;
    const images = [{ localId: task.localId, index: 0 }];
    const rated = await main.request('triage:apply', {
      images,
      change: { kind: 'rating', rating: 4 },
    });
    expect(rated).toMatchObject({ ok: true });
    await core.engine.whenWritten([task.localId]);
    const file = core.gallery.resolve(core.engine.get(task.localId)!.images[0]!.file!);
    const before = sha256(file);
    const [written, rebuilt, after] = await askedAsTheCloseBegins(main, async () => [
      await main.request('triage:writeMetadata', { images }),
      await rejectionOf(core.operations.rebuild()),
      sha256(file),
    ]);
    expect(written).toMatchObject(CLOSING);
    expect(rebuilt).toMatchObject({ sentence: { key: 'error.library.closing' } });
    expect(after).toBe(before);
  });

  it('stops a library move under way as the close begins; the close waits for its stop', async () => {
    const { main } = await mainWithImage();
    const { core } = main.runtime;
    const from = core.gallery.root;
    const to = join(main.dir, 'moved at quit');
    const begun = closeBegun(main);
    const events: string[] = [];
    let closed: Promise<void> = Promise.resolve();
    const moving = core.operations.changeFolder(async (hooks) => {
      // The quit comes once the move has its turn, before it copies anything.
      closed = teardown().then(() => void events.push('closed'));
      await begun;
      return main.runtime.moveGalleryTo(to, hooks);
    });
    const outcome = await rejectionOf(moving);
    events.push('move ended');
    const copied = existsSync(to) ? readdirSync(to) : [];
    const root = core.gallery.root;
    await closed;
    // Cancelled: what it had copied removed, the library whole where it was (relocate-stop.ts).
    expect(outcome).toBeInstanceOf(GalleryMoveCancelled);
    expect(root).toBe(from);
    expect(copied).toEqual([]);
    expect(events).toEqual(['move ended', 'closed']);
  });

  it('refuses a prompt pinned, forgotten or cleared: the prompt history is as it was', async () => {
    const { main } = await mainWithImage();
    const { core } = main.runtime;
    const prompt = 'kept at quit';
    const answers = await askedAsTheCloseBegins(main, async () => [
      await main.request('prompts:pin', { prompt, pinned: true }),
      await main.request('prompts:forget', { prompt }),
      await main.request('prompts:clear', undefined),
      core.history.prompts.list('', 10).map((entry) => [entry.prompt, entry.pinned]),
    ]);
    expect(answers).toMatchObject([CLOSING, CLOSING, CLOSING, [[prompt, false]]]);
  });

  it('refuses the costs exported as CSV: no file is written where the user chose', async () => {
    // The save dialog's answer: a file in the test's own folder, named once the main is made.
    let chosen = '';
    const { main } = await mainWithImage({
      wiring: (os) => ({
        library: {
          dialogs: { ...os.libraryDialogs, chooseLedgerFile: async () => chosen },
          version: '0.0.0-test',
        },
      }),
    });
    chosen = join(main.dir, 'costs at quit.csv');
    const [exported, written] = await askedAsTheCloseBegins(main, async () => [
      await main.request('costs:exportCsv', {}),
      readdirSync(main.dir).filter((name) => name.startsWith('costs at quit')),
    ]);
    expect(exported).toMatchObject(CLOSING);
    expect(written).toEqual([]);
  });

  it('refuses the templates exported to a file: no file is written where the user chose', async () => {
    // The save dialog's answer: a file in the test's own folder, named once the main is made.
    let chosen = '';
    const { main } = await mainWithImage({
      wiring: (os) => ({
        library: {
          dialogs: {
            ...os.libraryDialogs,
            chooseTemplateExportFile: async () => chosen,
            chooseTemplateImportFile: async () => null,
          },
          version: '0.0.0-test',
        },
      }),
    });
    chosen = join(main.dir, 'templates at quit.json');
    const saved = await main.request('templates:save', { name: 'Kept', body: 'a {red|blue} lake' });
    expect(saved).toMatchObject({ ok: true });
    const [exported, written] = await askedAsTheCloseBegins(main, async () => [
      await main.request('templates:export', { format: 'pictor' }),
      readdirSync(main.dir).filter((name) => name.startsWith('templates at quit')),
    ]);
    expect(exported).toMatchObject(CLOSING);
    expect(written).toEqual([]);
  });

  it('refuses a board an agent\'s add_to_board or a submit\'s "Generate into" would make', async () => {
    const { main } = await mainWithImage();
    const { core } = main.runtime;
    const answers = await askedAsTheCloseBegins(main, async () => [
      // add_to_board's first step (mcp-library-tools.ts): the board found or made.
      await rejectionOf(Promise.resolve().then(() => core.boards.ensure('Asked at quit'))),
      await main.request('tasks:submit', {
        request: { prompt: 'into a board at quit', size: '64x64' },
        target: DEMO_TARGET,
        count: 1,
        board: 'Generated at quit',
      }),
      core.boards.list(),
      core.history.count(),
    ]);
    expect(answers).toMatchObject([{ sentence: { key: 'error.library.closing' } }, CLOSING, [], 1]);
  });

  it('refuses a copy of chosen images asked as the close begins: nothing is copied', async () => {
    // The folder dialog's answer: a folder in the test's own, named once the main is made.
    let to = '';
    const { main, task } = await mainWithImage({ env: () => ({ PICTOR_E2E_CHOOSE_FOLDER: to }) });
    to = join(main.dir, 'exported at quit');
    mkdirSync(to);
    const [exported, copied] = await askedAsTheCloseBegins(main, async () => [
      await main.request('gallery:exportImages', { images: [{ localId: task.localId, index: 0 }] }),
      readdirSync(to),
    ]);
    expect(exported).toMatchObject(CLOSING);
    expect(copied).toEqual([]);
  });

  it('refuses "Open gallery folder": a gallery folder gone is not made again', async () => {
    const { main } = await mainWithImage();
    const root = main.runtime.core.gallery.root;
    const opened = () => main.os.calls.filter(({ action }) => action === 'openGalleryFolder');
    // Open, the core makes the folder again and the shell opens that path.
    rmSync(root, { recursive: true, force: true });
    expect(await main.request('gallery:openFolder', undefined)).toMatchObject({ ok: true });
    expect([existsSync(root), opened().length]).toEqual([true, 1]);
    const answers = await askedAsTheCloseBegins(main, async () => {
      rmSync(root, { recursive: true, force: true });
      return [await main.request('gallery:openFolder', undefined), existsSync(root), opened()];
    });
    expect(answers).toMatchObject([CLOSING, false, [{ action: 'openGalleryFolder' }]]);
  });

  it('refuses a ComfyUI workflow saved or removed: the book is as it was', async () => {
    const main = await mainOpening('PICTOR_E2E_OPEN_WORKFLOW', 'picked.json', WORKFLOW_GRAPH);
    const tokenOf = async (): Promise<string> => {
      const answer = await main.request('workflows:pick', undefined);
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value.pick!.token;
    };
    const map = { prompt: '6.text', seed: '3.seed' };
    const kept = await main.request('workflows:save', {
      token: await tokenOf(),
      name: 'kept',
      map,
    });
    expect(kept).toMatchObject({ ok: true });
    const token = await tokenOf();
    const { workflows } = main.runtime.core;
    const answers = await askedAsTheCloseBegins(main, async () => [
      await main.request('workflows:save', { token, name: 'asked-at-quit', map }),
      await main.request('workflows:remove', { name: 'kept' }),
      (await workflows.list()).map(({ name }) => name),
    ]);
    expect(answers).toMatchObject([CLOSING, CLOSING, ['kept']]);
  });

  // A refresh and a model's first use: tests/unit/core/param-schemas/model-options-close.test.ts
  // (the demo's fal dialect on loopback, its fetch held).
  it('refuses a model\'s options from a file and their "None": the options are as they were', async () => {
    const main = await mainOpening('PICTOR_E2E_OPEN_OPTIONS', 'house.json', {
      properties: { style: { enum: ['vivid', 'natural'] } },
    });
    const house = { provider: 'pictor', model: 'house' } as const;
    const kept = await main.request('models:fromFile', house);
    expect(kept).toMatchObject({ ok: true, value: { ok: true } });
    const file = join(main.dir, 'data', 'model-options.json');
    const before = sha256(file);
    const other = { provider: 'pictor', model: 'asked-at-quit' } as const;
    const answers = await askedAsTheCloseBegins(main, async () => [
      await main.request('models:fromFile', other),
      await main.request('models:forget', house),
      main.runtime.core.paramSchemas.kept().map((entry) => entry.model),
      sha256(file),
    ]);
    expect(answers).toMatchObject([CLOSING, CLOSING, ['house'], before]);
  });
});

/** A key the app holds (fal's, stored without its check), which the test's image carries. */
const HELD_KEY = 'fal-key-HANDEDOUT-0123456789';

/**
 * The wired main with {@link mainWithImage}'s image carrying a key the app holds in a PNG text
 * chunk: each hand-out makes its copy without it in the gallery's temp folder
 * (core/gallery/outgoing-file.ts). The shell's actions: the OS stand-ins, over `shell`'s.
 */
async function mainHandingOut(
  shell: (os: ShellActions) => Partial<ShellActions> = () => ({}),
  env: () => Record<string, string | undefined> = () => ({}),
) {
  const { main, task } = await mainWithImage({
    env,
    wiring: (os) => ({ shell: { ...os.shell, ...shell(os.shell) } }),
  });
  const stored = await main.request('keys:set', {
    provider: 'fal',
    key: HELD_KEY,
    allowWeakStorage: false,
    skipCheck: true,
  });
  expect(stored).toMatchObject({ ok: true });
  const { gallery } = main.runtime.core;
  const file = gallery.resolve(task.images[0]!.file!);
  const png = readFileSync(file);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  const text = pngChunk('tEXt', Buffer.from(`Comment\0echo ${HELD_KEY}`, 'latin1'));
  writeFileSync(file, Buffer.concat([png.subarray(0, -12), text, png.subarray(-12)]));
  const temp = join(gallery.root, TEMP_DIR);
  /** What the gallery's temp folder holds now. */
  const copies = () => (existsSync(temp) ? readdirSync(temp) : []);
  return { main, task, file, copies, ref: { localId: task.localId, index: 0 } };
}

describe('an image handed to the OS (Save as, Copy image, a drag out)', () => {
  it.each(['gallery:saveAs', 'gallery:copyImage', 'gallery:startDrag'] as const)(
    '%s is refused as the close begins: no copy is written, none handed to the OS',
    async (channel) => {
      // Save as's dialog answers a file in the test's own folder, named once the main is made.
      let chosen = '';
      const { main, ref, copies } = await mainHandingOut(undefined, () => ({
        PICTOR_E2E_SAVE_IMAGE: chosen,
      }));
      chosen = join(main.dir, 'saved at quit.png');
      const handed = () =>
        main.os.calls.filter(({ action }) => action === 'copyImage' || action === 'startDrag');
      const answers = await askedAsTheCloseBegins(main, async () => [
        await main.request(channel, ref),
        existsSync(chosen),
        copies(),
        handed(),
      ]);
      expect(answers).toMatchObject([CLOSING, false, [], []]);
    },
  );

  it('asked before the close, is waited for: its copy is removed before the close goes on', async () => {
    let answer: () => void = () => undefined;
    let asked: (file: string) => void = () => undefined;
    const handedFile = new Promise<string>((resolve) => (asked = resolve));
    const { main, ref, file, copies } = await mainHandingOut(() => ({
      // The clipboard takes the copy only once the close has begun.
      copyImage: async (path) => {
        asked(path);
        await new Promise<void>((resolve) => (answer = resolve));
        return { ok: true, value: undefined };
      },
    }));
    const copying = main.request('gallery:copyImage', ref);
    const handed = await handedFile;
    // The copy without the key, in the temp folder: not the gallery's file.
    expect(handed).not.toBe(file);
    expect(existsSync(handed)).toBe(true);
    let atFirstStep: string[] | undefined;
    after(main.runtime.core.trash, 'close', async () => void (atFirstStep = copies()));
    const begun = closeBegun(main);
    const closed = teardown();
    await begun;
    answer();
    await closed;
    expect(await copying).toMatchObject({ ok: true });
    expect(atFirstStep).toEqual([]);
  });

  it("does not wait on Save as's open dialog; the copy asked once it is answered is refused", async () => {
    let answer: (file: string) => void = () => undefined;
    let opened: () => void = () => undefined;
    const dialogOpen = new Promise<void>((resolve) => (opened = resolve));
    const { main, ref } = await mainHandingOut(() => ({
      chooseSaveAsFile: () => {
        opened();
        return new Promise((resolve) => (answer = (file) => resolve({ ok: true, value: file })));
      },
    }));
    const chosen = join(main.dir, 'chosen after the close.png');
    const saving = main.request('gallery:saveAs', ref);
    await dialogOpen;
    let outcome: unknown[] = [];
    // Once the close has ended (the dialog still open), the user answers it.
    after(main.runtime, 'close', async () => {
      answer(chosen);
      outcome = [await saving, existsSync(chosen)];
    });
    await teardown();
    expect(outcome).toMatchObject([CLOSING, false]);
  });
});

describe('the engine once the close has stopped it', () => {
  it("takes up no task when a front starts it again (an agent's call): nothing is written", async () => {
    const { main, task } = await mainWithImage();
    const { core } = main.runtime;
    // A task whose process ended during its submit (its request may have left), as the history
    // holds it: a start takes it up and records it as interrupted.
    const left: TaskRecord = {
      ...task,
      localId: '0b6c1e2a-3d4f-4a5b-8c6d-7e8f9a0b1c2d',
      taskId: null,
      status: 'submitting',
      images: [],
      sendState: 'sent',
    };
    core.history.put(left);
    let status: string | undefined;
    after(core.engine, 'stop', async () => {
      // Each MCP tool starts the engine first (mcp-task-tools.ts), without resuming.
      core.engine.start({ resume: false });
      status = core.history.get(left.localId)?.status;
    });
    await teardown();
    expect(status).toBe('submitting');
  });
});
