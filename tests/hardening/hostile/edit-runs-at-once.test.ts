/**
 * A compromised page running many edits at once (`edit:run`, each naming its inputs by digest: a
 * few characters a picture). Each task's images were read in main when it was sent and held until
 * its service answered the submit (inline, its request's body built whole): edits run side by
 * side had every task's images held at once, four tasks an address (the submit slots) on every
 * service with a key, twelve on three services here. Then at most two tasks held theirs at once
 * (core/inputs/send-inputs.ts) until their services answered. Now a body streams from the store's
 * file and a task lets its turn go once its body was handed off (core/inputs/inline-body.ts; what
 * main holds meanwhile is measured in streamed-inputs.test.ts): the submits are all open at once,
 * four an address, and every task is sent once and completes.
 *
 * Through the real bridge and handlers of a real AppRuntime, real PNGs, and three services on
 * loopback: today's contract (the app's demo), fal.ai and BFL (demo services speaking their
 * dialects, each with its key). Every service holds every submit until the test lets it answer
 * (their `delay` fault on timers the test keeps), counted as it arrives: the test lets them answer
 * once the submit slots are full, the oldest first.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoTimers } from '../../../electron/demo-service/types';
import type { ProviderId } from '../../../shared/domain/providers';
import { withAddress } from '../../../shared/domain/submit-target';
import { okValue } from '../../support/ipc';
import { UNTIL } from '../../support/waits';
import { wiredIpc } from '../../support/wired-ipc';
import { bridgedPage } from './bridged-page';
import { paddedPng } from './padded-png';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const INPUT_BYTES = 512 * 1024;
const KEY = 'service-key-0123456789';
/** An image-to-image model of each service, sent its input inline. */
const TARGETS: readonly { provider: ProviderId; model: string }[] = [
  { provider: 'pictor', model: 'demo-edit' },
  { provider: 'fal', model: 'fal-ai/flux-pro/kontext' },
  { provider: 'bfl', model: 'flux-kontext-pro' },
];
/** Each service twice a run: an edit takes six targets at most. */
const TARGETS_PER_RUN = TARGETS.length * 2;
const RUNS = 3;
const TASKS = RUNS * TARGETS_PER_RUN;
/** Submits open at one address at once (the engine's submit slots). */
const SLOTS_PER_ADDRESS = 4;
/** Submits open at once when no body waits for a turn: every service's slots full. */
const ALL_SLOTS = SLOTS_PER_ADDRESS * TARGETS.length;

/** The services' waits, held until the test lets the oldest go; how many were held at once. */
function heldSubmits() {
  const held: { readonly service: number; readonly answer: () => void }[] = [];
  let most = 0;
  const timersOf = (service: number): DemoTimers => ({
    setTimeout(answer) {
      held.push({ service, answer });
      most = Math.max(most, held.length);
      return {};
    },
    clearTimeout: () => undefined,
  });
  return {
    timersOf,
    open: () => held.length,
    most: () => most,
    answerOldest: () => {
      const oldest = held.shift();
      if (!oldest) return;
      oldest.answer();
    },
  };
}

async function app() {
  const env: Record<string, string | undefined> = {};
  const submits = heldSubmits();
  const { dir, runtime, wiring } = await wiredIpc(cleanups, {
    prefix: 'pictor-edit-runs-',
    env,
    runtime: () => ({ demo: { durationMs: 100, timers: submits.timersOf(0) } }),
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  const services: DemoService[] = [runtime.demo];
  for (const [index, provider] of (['fal', 'bfl'] as const).entries()) {
    const service = await startDemoService({
      dialect: provider,
      accounts: [{ account: 'user', key: KEY }],
      durationMs: 100,
      timers: submits.timersOf(index + 1),
    });
    cleanups.push(() => service.close());
    services.push(service);
    const { serviceBaseUrls } = withAddress(runtime.settings.get(), provider, service.url);
    await runtime.updateSettings({ serviceBaseUrls });
    await runtime.setKey(KEY, false, provider);
  }
  for (const service of services) {
    service.addFault({ route: 'submit', effect: { type: 'delay', ms: 1 } });
  }
  const request = bridgedPage(wiring.handlers, cleanups);
  /** A new input of INPUT_BYTES picked through main's dialog. */
  const pick = async () => {
    const path = join(dir, 'photo.png');
    await writeFile(path, await paddedPng(64, 90, INPUT_BYTES, 7));
    env['PICTOR_E2E_CHOOSE_IMAGE'] = path;
    return (okValue(await request('inputs:pickFile')) as { image: unknown }).image;
  };
  const submitsSeen = () =>
    services.flatMap((service) => service.log.requests.filter((one) => one.route === 'submit'));
  return { runtime, request, pick, submits, submitsSeen };
}

describe('a page’s edits run side by side', () => {
  it(`${RUNS} runs of ${TARGETS_PER_RUN} targets on three services at once: the submits all open, each sent once`, async () => {
    const { runtime, request, pick, submits, submitsSeen } = await app();
    const edit = {
      prompt: 'make it warmer',
      inputs: { operation: 'edit', source: await pick() },
      targets: [...TARGETS, ...TARGETS],
    };
    const runs = await Promise.all(Array.from({ length: RUNS }, () => request('edit:run', edit)));
    const localIds = runs.flatMap((run) =>
      (okValue(run) as { items: { record: { localId: string } }[] }).items.map(
        (item) => item.record.localId,
      ),
    );
    expect(localIds).toHaveLength(TASKS);
    // Not two at a time: each body let its turn go once sent, so every slot fills.
    await vi.waitFor(() => expect(submits.open()).toBe(ALL_SLOTS), UNTIL);
    for (let answered = 0; answered < TASKS; answered += 1) {
      await vi.waitFor(() => expect(submits.open()).toBeGreaterThanOrEqual(1), UNTIL);
      submits.answerOldest();
    }
    const done = await runtime.core.engine.whenSettled(localIds);
    expect(done.map((record) => record?.status)).toEqual(localIds.map(() => 'completed'));
    expect(submitsSeen()).toHaveLength(TASKS);
    expect(submits.most(), 'submits open at once').toBe(ALL_SLOTS);
  });
});
