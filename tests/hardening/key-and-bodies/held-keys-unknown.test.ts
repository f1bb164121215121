/**
 * What leaves the app while its keys are not known yet: the OS's storage has not given its first
 * answer (a keychain prompt nobody has answered; the app's start does not wait for it), and a
 * plain read of the keys gives none meanwhile (AppCredentials.heldKeys: a request never waits).
 * The one rule (core/secrets/held-key-scrub.ts): an Export CSV, an outgoing file's or copied
 * command's scrubber and a typed task id's check wait for that first answer, then search for
 * every key it gives, in every encoding the key finder knows; once the storage has answered that
 * a key cannot be decrypted, what goes out goes on (that key is unknown to the process), as it
 * does at once when no key is stored at all.
 *
 * The app's own credentials over its own vaults (ServiceKeys), whose storage is a stand-in the
 * test answers for (HeldCipher); the key is another service's (fal), as any held key is
 * searched for. A real core over a real library on disk.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppCredentials } from '../../../electron/app/app-credentials';
import { KeptIdPage } from '../../../electron/app/kept-id-page';
import { ServiceKeys } from '../../../electron/core/key-vault/service-keys';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { makeRecord } from '../../unit/core/history/history-fixtures';
import { HeldCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';
import { ManualClock } from '../../fakes/manual-clock';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { UNTIL } from '../../support/waits';
import { keptIdEncodings, ENCODINGS, keyScanner } from './key-encodings';

const KEY = 'fal-held-unknown-5b2e90c7d41a86f3';
const NOW = Date.parse('2026-12-01T12:00:00Z');
const USD = { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' } as const;

/** The encodings a task id can carry past the task id rule (keptIdEncodings). */
const ID_ENCODINGS = keptIdEncodings(KEY);
const keptId = (encoding: string, n: number) => `task-${ENCODINGS[encoding]!(KEY, n)}`;

interface World {
  readonly core: PictorCore;
  readonly storage: HeldCipher;
  readonly keys: ServiceKeys;
}

/** A core over the app's credentials; `stored`: the fal key is in its vault; the storage held. */
async function heldWorld(stored: boolean): Promise<World> {
  const dir = await offlineDir();
  const storage = new HeldCipher();
  const keys = new ServiceKeys({
    storeFor: (provider) => new InMemoryKv(dir, `key-vault-${provider}`),
    cipher: storage,
    now: () => NOW,
  });
  if (stored) await keys.vault('fal').setKey(KEY, { allowWeakStorage: false, baseUrl: null });
  storage.hold();
  const settings = new SettingsService({
    store: new InMemoryKv(dir, 'settings'),
    now: () => NOW,
  });
  const core = await offlineCore({
    dir,
    credentials: new AppCredentials({ keys, settings, demoUrl: () => null }),
    clock: new ManualClock(NOW),
  });
  // Tasks kept under an id that carries the key (before ids were checked), and a clean one.
  core.history.putMany([
    ...ID_ENCODINGS.map((encoding, n) =>
      makeRecord({
        localId: `kept-${encoding}`,
        taskId: keptId(encoding, n),
        createdAt: NOW - 1_000 - n,
        request: { prompt: `Tracked task ${keptId(encoding, n)}` },
        cost: USD,
      }),
    ),
    makeRecord({ localId: 'clean', createdAt: NOW - 10, cost: USD }),
  ]);
  return { core, storage, keys };
}

/**
 * `work`, begun while the storage is held: it has not ended by the time it waits for the storage's
 * answer (nor before, had it not waited); it ends once the storage answers.
 */
async function waitsForTheAnswer<T>(world: World, work: () => Promise<T>): Promise<T> {
  const before = world.storage.waits;
  let ended = false;
  const running = work().finally(() => (ended = true));
  running.catch(() => undefined);
  await vi.waitFor(() => expect(ended || world.storage.waits > before).toBe(true), UNTIL);
  expect(ended, 'it went on before the keys were known').toBe(false);
  world.storage.answer();
  return running;
}

const csvOf = async (core: PictorCore) => [...(await core.costs.csvChunks({}))].join('');
const lineOf = (text: string, localId: string) =>
  text.split('\r\n').find((line) => line.includes(`,${localId},`)) ?? '';

describe('what leaves the app before the keys are known', () => {
  it('an Export CSV waits for the storage’s answer, then holds no form of the key', async () => {
    const world = await heldWorld(true);
    const text = await waitsForTheAnswer(world, () => csvOf(world.core));
    expect(keyScanner(KEY).leaks(text)).toEqual([]);
    expect(text.split('\r\n')).toHaveLength(ID_ENCODINGS.length + 3);
    for (const encoding of ID_ENCODINGS) {
      const line = lineOf(text, `kept-${encoding}`);
      expect(line, encoding).toContain('[redacted]');
      expect(line, encoding).toContain('0.04');
    }
  });

  it('an outgoing file’s or copied command’s scrubber waits, then scrubs every encoding', async () => {
    const world = await heldWorld(true);
    const ids = ID_ENCODINGS.map(keptId);
    const scrubbers = await waitsForTheAnswer(world, () =>
      Promise.all(ids.map((id) => world.core.keptIdScrubber(id))),
    );
    const scanner = keyScanner(KEY);
    for (const [n, scrub] of scrubbers.entries()) {
      expect(scrub, ID_ENCODINGS[n]).not.toBeNull();
      expect(scanner.leaks(scrub!(`{"taskId":"${ids[n]}"}`)), ID_ENCODINGS[n]).toEqual([]);
    }
    // An id that carries no key needs no scrub.
    expect(await world.core.keptIdScrubber('task-0f9e8d7c6b5a')).toBeNull();
  });

  it('a typed task id that carries the key is checked once the keys are known: refused', async () => {
    const world = await heldWorld(true);
    for (const [n, encoding] of ID_ENCODINGS.entries()) {
      if (n > 0) world.storage.hold();
      const tracked = waitsForTheAnswer(world, () => world.core.engine.track(keptId(encoding, n)));
      await expect(tracked, encoding).rejects.toMatchObject({
        sentence: { key: 'error.service.taskIdCarriesKey' },
      });
    }
  });

  it('goes on once the storage answered that the key cannot be decrypted (the rule)', async () => {
    const world = await heldWorld(true);
    world.storage.decryptFault = 'throws';
    const text = await waitsForTheAnswer(world, () => csvOf(world.core));
    // Every row goes out as kept: the key is unknown to the process, and Settings says so.
    expect(lineOf(text, `kept-raw`)).toContain(KEY);
    expect(world.keys.vault('fal').status().state).toBe('decrypt_failed');
  });

  it('waits for nothing when no key is stored', async () => {
    const world = await heldWorld(false);
    const before = world.storage.waits;
    const text = await csvOf(world.core);
    expect(world.storage.waits).toBe(before);
    expect(lineOf(text, `kept-raw`)).toContain(KEY);
    expect(await world.core.keptIdScrubber(keptId('raw', 0))).toBeNull();
  });
});

/**
 * The page's lists while a keychain prompt is open: a payload holding a task id waits for the
 * keys (app/kept-id-page.ts, fed by the vaults as the app feeds it: AppRuntime `follow`). What
 * ends that wait, and what the user is told: the prompt allowed (the keys known, the rows
 * judged by them), denied (the storage answers that it cannot decrypt: the vault's status turns
 * `unavailable`, which the window's key banner shows), dismissed so that the decrypt fails
 * (`decrypt_failed`, the banner too). Each answer lets the rows go; none leaves them waiting.
 */
describe('the page’s lists while a keychain prompt is open', () => {
  const row = (taskId: string) => ({ taskId, prompt: `Task ${taskId}` });

  async function waitingPage() {
    const world = await heldWorld(true);
    const page = new KeptIdPage();
    const told: string[] = [];
    const listening = world.keys.onChange((_provider, status) => told.push(status.state));
    onTestFinished(() => listening.dispose());
    const follow = page.follow(world.keys);
    onTestFinished(() => follow.dispose());
    const kept = keptId('raw', 0);
    let answered = false;
    const answer = Promise.resolve(page.scrub({ items: [row(kept), row('task-clean')] })).finally(
      () => (answered = true),
    );
    await vi.waitFor(() => expect(world.storage.waits).toBeGreaterThan(0), UNTIL);
    expect(answered, 'the list went out before the keys were known').toBe(false);
    expect(world.keys.vault('fal').status().state).toBe('not_ready');
    return { world, answer, kept, told };
  }

  it('allowed: the rows go out judged by the key', async () => {
    const { world, answer } = await waitingPage();
    world.storage.answer();
    const items = ((await answer) as { items: { taskId: string }[] }).items;
    expect(keyScanner(KEY).leaks(JSON.stringify(items))).toEqual([]);
    expect(items[1]).toEqual(row('task-clean'));
  });

  it.each([
    ['denied (the storage unavailable)', 'unavailable'],
    ['dismissed (the decrypt fails)', 'decrypt_failed'],
  ] as const)('%s: the rows go out, and the key’s status says why', async (_name, state) => {
    const { world, answer, kept, told } = await waitingPage();
    if (state === 'unavailable') world.storage.available = false;
    else world.storage.decryptFault = 'throws';
    world.storage.answer();
    // Nothing could be read: the rows go as they are (the rule of held-key-scrub.ts).
    expect(await answer).toEqual({ items: [row(kept), row('task-clean')] });
    // As the app does once the storage's first answer is in (desktop-start.ts: keys.verify()).
    await world.keys.verify();
    expect(world.keys.vault('fal').status().state).toBe(state);
    expect(told).toContain(state);
  });
});
