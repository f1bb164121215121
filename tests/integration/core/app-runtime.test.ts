import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRuntime } from '../../support/app-runtime';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type {
  KeyOriginAnswer,
  KeyOriginQuestion,
  UserPrompts,
} from '../../../electron/ports/user-prompts';
import { targetOf } from '../../support/submit-target';
import { ownAddress } from '../../support/own-address';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await tempFolder('runtime');
  cleanups.push(() => removeFolder(dir));
  return dir;
}

/** The main process's dialog, answered as the test scripts it; every question is kept. */
function scriptedPrompts(answer: KeyOriginAnswer = 'cancel') {
  const asked: KeyOriginQuestion[] = [];
  const prompts = {
    answer,
    asked,
    confirmKeyOrigin: async (question: KeyOriginQuestion) => {
      asked.push(question);
      return prompts.answer;
    },
  };
  return prompts;
}

async function startRuntime(dir: string, prompts: UserPrompts = scriptedPrompts()) {
  const runtime = await startTestRuntime(dir, {
    prompts,
    defaultGalleryDir: join(dir, 'Pictures', 'Pictor'),
    demo: { durationMs: 300 },
    pollIntervalMs: 150,
  });
  cleanups.push(() => runtime.close());
  return runtime;
}

/**
 * Live subscriptions to every service's key vault and to the settings service: their private
 * emitters' subscriptions (each hands out `onDidChange`, an instance property, not a method).
 */
function liveSubscriptions(runtime: Awaited<ReturnType<typeof startTestRuntime>>) {
  const vault = (provider: ProviderId) => runtime.keys.vault(provider)['changed']['subscriptions'];
  return {
    vault: PROVIDER_IDS.reduce((sum, provider) => sum + vault(provider).size, 0),
    settings: runtime.settings['changed']['subscriptions'].size,
  };
}

describe('AppRuntime', () => {
  it('runs on the embedded demo service until a key and a base URL are set', async () => {
    const runtime = await startRuntime(await tempDir());
    expect(runtime.credentials.isDemo()).toBe(true);
    runtime.core.engine.start();
    const [record] = await runtime.core.engine.submit(
      { prompt: 'first run', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await runtime.core.engine.whenSettled([record!.localId]);
    expect(done).toMatchObject({
      status: 'completed',
      endpoint: 'demo:',
      images: [{ state: 'saved' }],
    });
    expect(runtime.demo.log.submits).toHaveLength(1);
  });

  it('switches to the user’s service once the key and base URL are set, and back when the key is cleared', async () => {
    const dir = await tempDir();
    const service: DemoService = await startDemoService({
      accounts: [{ account: 'me', key: 'sk-mine' }],
      durationMs: 300,
    });
    cleanups.push(() => service.close());
    const runtime = await startRuntime(dir);
    await runtime.updateSettings(ownAddress(service.url));
    await runtime.setKey('sk-mine', false);
    expect(runtime.credentials.isDemo()).toBe(false);
    runtime.core.engine.start();
    const [record] = await runtime.core.engine.submit(
      { prompt: 'real service', size: '64x64' },
      targetOf(runtime.credentials),
    );
    await runtime.core.engine.whenSettled([record!.localId]);
    expect(service.log.submits).toHaveLength(1);
    expect(service.log.submits[0]!.headers.authorization).toBe('Bearer sk-mine');
    runtime.vault.clear();
    expect(runtime.credentials.isDemo()).toBe(true);
  });

  it('reads who listens at its loopback service through the gate it was given', async () => {
    const service: DemoService = await startDemoService({
      accounts: [{ account: 'me', key: 'sk-mine' }],
      durationMs: 100,
    });
    cleanups.push(() => service.close());
    let reads = 0;
    const dir = await tempDir();
    const runtime = await startTestRuntime(dir, {
      demo: { durationMs: 100 },
      pollIntervalMs: 100,
      localServers: {
        tables: () => {
          reads += 1;
          return Promise.resolve({ tcp: null, tcp6: null });
        },
      },
    });
    cleanups.push(() => runtime.close());
    await runtime.updateSettings(ownAddress(service.url));
    await runtime.setKey('sk-mine', false);
    runtime.core.engine.start();
    const [record] = await runtime.core.engine.submit(
      { prompt: 'gated', size: '64x64' },
      targetOf(runtime.credentials),
    );
    await runtime.core.engine.whenSettled([record!.localId]);
    expect(service.log.submits).toHaveLength(1);
    expect(reads).toBeGreaterThan(0);
  });

  it('keeps a logger redacting the current key, and retries held tasks only when the base URL changes', async () => {
    const runtime = await startRuntime(await tempDir(), scriptedPrompts('carry'));
    const redactors: (((text: string) => string) | null)[] = [];
    await runtime.redactKeyIn({ setRedactor: (redactor) => redactors.push(redactor) });
    expect(redactors).toEqual([null]);
    await runtime.setKey('sk-follow-me', false);
    await expect
      .poll(() => redactors.at(-1)?.('token sk-follow-me here'), UNTIL)
      .toBe('token [redacted] here');
    let retried = 0;
    const engine = runtime.core.engine;
    const original = engine.keyChanged.bind(engine);
    engine.keyChanged = () => {
      retried += 1;
      original();
    };
    await runtime.updateSettings({ theme: 'dark' });
    expect(retried).toBe(0);
    // The new address and the key bound to it (the user said "carry") each retry held tasks.
    await runtime.updateSettings(ownAddress('https://api.example.com'));
    expect(retried).toBeGreaterThanOrEqual(1);
  });

  it('applies a new watch timeout at once', async () => {
    const runtime = await startRuntime(await tempDir());
    await runtime.updateSettings({ watchTimeoutMinutes: 0 });
    expect(runtime.core.engine.options.watchTimeoutMs).toBeNull();
    await runtime.updateSettings({ watchTimeoutMinutes: 5 });
    expect(runtime.core.engine.options.watchTimeoutMs).toBe(300_000);
  });

  it('moves the gallery to a new folder on the same core: files move, records still resolve', async () => {
    const dir = await tempDir();
    const runtime = await startRuntime(dir);
    const core = runtime.core;
    core.engine.start();
    const [record] = await core.engine.submit(
      { prompt: 'moving day', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await core.engine.whenSettled([record!.localId]);
    const oldFile = core.gallery.resolve(done!.images[0]!.file!);
    const target = join(dir, 'Elsewhere');
    const result = await runtime.moveGalleryTo(target);
    expect(result).toEqual({ moved: 1, leftBehind: [] });
    expect(runtime.settings.get().galleryDir).toBe(target);
    expect(runtime.core).toBe(core);
    expect(existsSync(oldFile)).toBe(false);
    const moved = core.engine.get(record!.localId)!;
    expect(existsSync(core.gallery.resolve(moved.images[0]!.file!))).toBe(true);
    expect(core.gallery.root).toBe(target);
  });

  it('a theme change and a key go through while a library move is held; the move then ends as asked', async () => {
    const dir = await tempDir();
    const runtime = await startRuntime(dir);
    let release: () => void = () => undefined;
    let held: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // Holds every change of the library's folder until released (as a slow copy would).
    const guard = runtime.core.library.aroundChanges(async (change) => {
      held();
      await new Promise<void>((resolve) => (release = resolve));
      return change();
    });
    const target = join(dir, 'Elsewhere');
    const move = runtime.moveGalleryTo(target);
    await holding;
    // Settings and keys have their own queue: neither waits for the move.
    const updated = await runtime.updateSettings({ theme: 'dark' });
    expect(updated.theme).toBe('dark');
    await runtime.clearKey('fal');
    expect(runtime.settings.get().galleryDir).not.toBe(target);
    release();
    expect(await move).toEqual({ moved: 0, leftBehind: [] });
    expect(runtime.settings.get()).toMatchObject({ theme: 'dark', galleryDir: target });
    guard.dispose();
    // Moving it where it is, once more, moves nothing.
    expect(await runtime.moveGalleryTo(target)).toEqual({ moved: 0, leftBehind: [] });
  }, 20_000);

  it('a task in flight during a move keeps its id, is never sent again, and completes into the new folder', async () => {
    const dir = await tempDir();
    // Tasks stay processing until the test completes them.
    const runtime = await startTestRuntime(dir, {
      defaultGalleryDir: join(dir, 'Pictures', 'Pictor'),
      demo: { durationMs: 3_600_000 },
      pollIntervalMs: 50,
    });
    cleanups.push(() => runtime.close());
    const { engine, gallery } = runtime.core;
    const heard: string[] = [];
    engine.onDidUpdate(({ record }) => heard.push(record.status));
    engine.start();
    const [record] = await engine.submit(
      { prompt: 'in flight', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const localId = record!.localId;
    const polled = (since: number) =>
      new Promise<void>((resolve) => {
        const subscription = engine.onDidUpdate(({ record: changed }) => {
          if (changed.localId === localId && changed.polls > since) {
            subscription.dispose();
            resolve();
          }
        });
      });
    await polled(0);
    const before = engine.get(localId)!;
    expect(before).toMatchObject({ status: 'processing', hold: null });
    const target = join(dir, 'Elsewhere');
    await runtime.moveGalleryTo(target);
    // Polls resume on the same task id; the service was asked for it once.
    await polled(engine.get(localId)!.polls);
    expect(engine.get(localId)!.taskId).toBe(before.taskId);
    runtime.demo.completeTask(before.taskId!);
    const [done] = await engine.whenSettled([localId]);
    expect(done).toMatchObject({ status: 'completed', taskId: before.taskId });
    expect(runtime.demo.tasks()).toHaveLength(1);
    expect(runtime.demo.log.submits).toHaveLength(1);
    const file = gallery.resolve(done!.images[0]!.file!);
    expect(file.startsWith(`${target}/`)).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(heard).not.toContain('submit_unknown');
  });

  it('a move stopped by a fault leaves the core running on the old folder', async () => {
    const dir = await tempDir();
    const runtime = await startTestRuntime(dir, {
      defaultGalleryDir: join(dir, 'Pictures', 'Pictor'),
      demo: { durationMs: 300 },
      pollIntervalMs: 150,
      libraryFaults: {
        beforeCopy: () => {
          throw new Error('the disk went away');
        },
      },
    });
    cleanups.push(() => runtime.close());
    const core = runtime.core;
    core.engine.start();
    const [first] = await core.engine.submit(
      { prompt: 'stay put', size: '64x64' },
      targetOf(runtime.credentials),
    );
    await core.engine.whenSettled([first!.localId]);
    const oldRoot = core.gallery.root;
    await expect(runtime.moveGalleryTo(join(dir, 'Elsewhere'))).rejects.toThrow();
    expect(runtime.core).toBe(core);
    expect(core.gallery.root).toBe(oldRoot);
    expect(runtime.settings.get().galleryDir).toBe('');
    // The engine was resumed: a new task runs and lands in the old folder.
    const [second] = await core.engine.submit(
      { prompt: 'after the fault', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await core.engine.whenSettled([second!.localId]);
    expect(done!.status).toBe('completed');
    const file = core.gallery.resolve(done!.images[0]!.file!);
    expect(file.startsWith(`${oldRoot}/`)).toBe(true);
    expect(existsSync(file)).toBe(true);
  });

  it('a folder the gallery cannot work in after the copy puts the setting and the gallery back', async () => {
    const dir = await tempDir();
    const runtime = await startRuntime(dir);
    const { engine, gallery } = runtime.core;
    engine.start();
    const [record] = await engine.submit(
      { prompt: 'come back', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await engine.whenSettled([record!.localId]);
    const oldRoot = gallery.root;
    const target = join(dir, 'Elsewhere');
    const reroot = gallery.reroot.bind(gallery);
    gallery.reroot = async (folder) => {
      if (folder === target) throw new Error('the folder cannot be made ready');
      return reroot(folder);
    };
    await expect(runtime.moveGalleryTo(target)).rejects.toThrow();
    expect(runtime.settings.get().galleryDir).toBe('');
    expect(gallery.root).toBe(oldRoot);
    expect(existsSync(gallery.resolve(done!.images[0]!.file!))).toBe(true);
  });

  it('ends its own subscriptions to the key and the settings when closed', async () => {
    const runtime = await startTestRuntime(await tempDir());
    const live = () => liveSubscriptions(runtime);
    await runtime.redactKeyIn({ setRedactor: () => undefined });
    const engine = runtime.core.engine;
    let keyChanges = 0;
    engine.keyChanged = () => void (keyChanges += 1);
    runtime.settings.update(ownAddress('https://one.example.com'));
    expect(keyChanges).toBe(1);
    // Held-task retries (every service's vault and settings), the log's redactor and the page's
    // guard of kept key-carrying ids (kept-id-page.ts; each every service's vault).
    expect(live()).toEqual({ vault: 3 * PROVIDER_IDS.length, settings: 1 });
    await runtime.close();
    expect(live()).toEqual({ vault: 0, settings: 0 });
    runtime.settings.update(ownAddress('https://two.example.com'));
    expect(keyChanges).toBe(1);
  });

  it('refuses a gallery move onto another task’s folder and keeps the old library in use', async () => {
    const dir = await tempDir();
    const runtime = await startRuntime(dir);
    runtime.core.engine.start();
    const [record] = await runtime.core.engine.submit(
      { prompt: 'stay', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await runtime.core.engine.whenSettled([record!.localId]);
    const target = join(dir, 'Busy');
    await mkdir(join(target, done!.folder!), { recursive: true });
    await writeFile(
      join(target, done!.folder!, 'pictor.json'),
      JSON.stringify({ localId: 'someone-else' }),
    );
    await expect(runtime.moveGalleryTo(target)).rejects.toThrow(/Choose an empty folder/);
    expect(runtime.settings.get().galleryDir).toBe('');
    expect(runtime.core.gallery.root).toBe(join(dir, 'Pictures', 'Pictor'));
    expect(existsSync(runtime.core.gallery.resolve(done!.images[0]!.file!))).toBe(true);
  });
});
