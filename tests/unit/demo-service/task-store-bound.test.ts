/**
 * The demo's tasks hold their prompts, their inputs and the images made from them: within the
 * service's `maxHeldBytes`, finished tasks are forgotten oldest first (their ids and images then
 * unknown, as at a service that keeps results for a while), running ones never; while running
 * ones alone pass the bound, the store says it is full (submits are refused as a busy service's).
 * A manual clock moves the tasks on.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../../electron/demo-service/options';
import { heldBytesOf, TaskStore } from '../../../electron/demo-service/task-store';
import type { AcceptedRequest } from '../../../electron/demo-service/request-validation';
import { validateGenerationRequest } from '../../../electron/demo-service/request-validation';

function storeWith(maxHeldBytes: number) {
  let now = 1_000;
  const store = new TaskStore(resolveOptions({ maxHeldBytes, durationMs: 100, now: () => now }));
  return { store, advance: (ms: number) => void (now += ms) };
}

function request(prompt: string): AcceptedRequest {
  const checked = validateGenerationRequest({ prompt }, 2048);
  if (!checked.ok) throw new Error(checked.problem.message);
  return checked.request;
}

/** A prompt of `chars` characters, told apart by `n`: about 9 KB a task. */
const prompt = (n: number, chars = 8_000) => `${n} ${'x'.repeat(chars)}`;

describe('the demo’s tasks within its bound', () => {
  it('forgets finished tasks oldest first, with their images, once over the bound', () => {
    const { store, advance } = storeWith(40_000);
    const first = store.create('demo', request(prompt(1)));
    const second = store.create('demo', request(prompt(2)));
    advance(200);
    expect(store.get(first.id)?.status).toBe('completed');
    const token = store.get(first.id)!.images[0]!.token;
    expect(store.image(token)).toBeDefined();
    // Each task about 9 KB: the fifth passes 40,000, the oldest finished one goes.
    for (let n = 3; n <= 5; n += 1) store.create('demo', request(prompt(n)));
    expect(store.heldBytes).toBeLessThanOrEqual(40_000);
    expect(store.get(first.id)).toBeUndefined();
    expect(store.image(token)).toBeUndefined();
    expect(store.get(second.id)?.status).toBe('completed');
  });

  it('never forgets a running task: past the bound with running ones alone, it is full', () => {
    const { store, advance } = storeWith(40_000);
    const running = Array.from({ length: 5 }, (_, n) => store.create('demo', request(prompt(n))));
    expect(store.heldBytes).toBeGreaterThan(40_000);
    expect(store.full()).toBe(true);
    for (const task of running) expect(store.get(task.id)?.status).toBe('processing');
    advance(200);
    expect(store.full()).toBe(false);
    expect(store.heldBytes).toBeLessThanOrEqual(40_000);
    expect(store.all().length).toBeLessThan(5);
  });

  it('counts the image a task made from its inputs, and what a dialect keeps with it', () => {
    const { store } = storeWith(1_000_000);
    const task = store.create('demo', request('a cat'), { keptBytes: 5_000 });
    const before = store.heldBytes;
    store.setOutput(task.id, Buffer.alloc(100_000));
    expect(store.heldBytes).toBe(before + 100_000);
    store.setOutput(task.id, Buffer.alloc(40_000));
    expect(store.heldBytes).toBe(before + 40_000);
    expect(store.output(task.id)?.length).toBe(40_000);
    expect(before).toBeGreaterThan(5_000);
  });

  it('forgets a prompt’s count with its last kept task, keeps it while one is kept', () => {
    // About 9 KB a task: two fit, a third forgets the oldest finished one.
    const { store, advance } = storeWith(20_000);
    const a = store.create('demo', request(prompt(7)));
    const b = store.create('demo', request(prompt(7)));
    expect([a.variant, b.variant]).toEqual([0, 1]);
    advance(200);
    store.create('demo', request(prompt(8)));
    expect(store.get(a.id)).toBeUndefined();
    // b is kept: the next of prompt 7 is its third, with pictures of its own.
    const c = store.create('demo', request(prompt(7)));
    expect(c.variant).toBe(2);
    expect(store.get(b.id)).toBeUndefined();
    advance(200);
    store.create('demo', request(prompt(9)));
    store.create('demo', request(prompt(9)));
    expect(store.get(c.id)).toBeUndefined();
    // No task of prompt 7 is kept: its count went with the last one.
    expect(store.create('demo', request(prompt(7))).variant).toBe(0);
  });

  it('sizes a dialect’s input by walking it, strings at a byte a character', () => {
    expect(heldBytesOf('abcd')).toBe(4);
    expect(heldBytesOf(Buffer.alloc(10))).toBe(10);
    const input = { image_url: `data:image/png;base64,${'A'.repeat(1_000_000)}` };
    expect(heldBytesOf(input)).toBeGreaterThan(1_000_000);
    // What lies at any depth counts: a walk that stopped at some depth left a payload nested
    // past it out of the bound, and a recursive one overflowed on a deep body.
    for (const depth of [100, 1_000_000]) {
      const deep: Record<string, unknown> = {};
      let at = deep;
      for (let n = 0; n < depth; n += 1) at = (at['a'] = {}) as Record<string, unknown>;
      at['payload'] = 'x'.repeat(1_000_000);
      expect(heldBytesOf(deep)).toBeGreaterThan(1_000_000);
    }
    const parsed: unknown = JSON.parse(
      `${'['.repeat(200_000)}"${'y'.repeat(500_000)}"${']'.repeat(200_000)}`,
    );
    expect(heldBytesOf(parsed)).toBeGreaterThan(500_000);
  });
});

describe('a submit refused while running tasks hold the bound', () => {
  it('reads every task once, not again until one can have finished', () => {
    let now = 1_000;
    let looks = 0;
    const store = new TaskStore(
      resolveOptions({
        maxHeldBytes: 100_000,
        durationMs: 1_000,
        now: () => {
          looks += 1;
          return now;
        },
      }),
    );
    const tasks = Array.from({ length: 200 }, (_, n) => store.create('demo', request(prompt(n))));
    expect(store.full()).toBe(true);
    looks = 0;
    for (let n = 0; n < 100; n += 1) expect(store.full()).toBe(true);
    // One look at the clock a refusal, not one a task.
    expect(looks).toBeLessThanOrEqual(100);
    // A task finished by hand can be forgotten at once; so can those whose time has come.
    store.complete(tasks[0]!.id);
    expect(store.full()).toBe(true);
    expect(store.get(tasks[0]!.id)).toBeUndefined();
    now += 1_000;
    expect(store.full()).toBe(false);
  });
});
