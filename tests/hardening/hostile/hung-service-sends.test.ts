/**
 * A service that takes edits and never answers them, beside services that do. At most two tasks
 * hold their input images at once (core/inputs/send-inputs.ts): when both turns went to the tasks
 * of one service that never answers, every other service's edits waited for them, until the
 * submit's 30-second limit let one go and the next task of the same service took its turn again.
 * A service holds one of the two turns at most, and a task now lets its turn go once its body was
 * handed off (streamed from the store's file: core/inputs/inline-body.ts), not when its service
 * answers: the hung service's edits are all sent, not one at a time, and the others' edits are
 * sent and complete while it hangs.
 *
 * Through the real bridge and handlers of a real AppRuntime, real PNGs, and three services on
 * loopback: the app's demo and BFL answer at once; fal.ai (a demo service speaking its dialect)
 * holds every submit until the test lets it answer (its `delay` fault on timers the test keeps).
 * Its edit is run first, so its tasks come to their turns before the others'.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoTimers } from '../../../electron/demo-service/types';
import { withAddress } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { okValue } from '../../support/ipc';
import { UNTIL } from '../../support/waits';
import { wiredIpc } from '../../support/wired-ipc';
import { bridgedPage } from './bridged-page';
import { paddedPng } from './padded-png';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = 'service-key-0123456789';
const HUNG = { provider: 'fal', model: 'fal-ai/flux-pro/kontext' } as const;
const ANSWERING = [
  { provider: 'pictor', model: 'demo-edit' },
  { provider: 'bfl', model: 'flux-kontext-pro' },
] as const;

/** The hung service's answers, held until the test lets the oldest go. */
function heldSubmits() {
  const held: (() => void)[] = [];
  let most = 0;
  const timers: DemoTimers = {
    setTimeout(answer) {
      held.push(answer);
      most = Math.max(most, held.length);
      return {};
    },
    clearTimeout: () => undefined,
  };
  return {
    timers,
    open: () => held.length,
    most: () => most,
    answerOldest: () => held.shift()?.(),
  };
}

async function app() {
  const env: Record<string, string | undefined> = {};
  const hung = heldSubmits();
  const { dir, runtime, wiring } = await wiredIpc(cleanups, {
    prefix: 'pictor-hung-service-',
    env,
    runtime: () => ({ demo: { durationMs: 100 } }),
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  for (const provider of ['fal', 'bfl'] as const) {
    const service = await startDemoService({
      dialect: provider,
      accounts: [{ account: 'user', key: KEY }],
      durationMs: 100,
      ...(provider === HUNG.provider ? { timers: hung.timers } : {}),
    });
    cleanups.push(() => service.close());
    if (provider === HUNG.provider) {
      service.addFault({ route: 'submit', effect: { type: 'delay', ms: 1 } });
    }
    const { serviceBaseUrls } = withAddress(runtime.settings.get(), provider, service.url);
    await runtime.updateSettings({ serviceBaseUrls });
    await runtime.setKey(KEY, false, provider);
  }
  const request = bridgedPage(wiring.handlers, cleanups);
  const path = join(dir, 'photo.png');
  await writeFile(path, await paddedPng(64, 90, 256 * 1024, 7));
  env['PICTOR_E2E_CHOOSE_IMAGE'] = path;
  const source = (okValue(await request('inputs:pickFile')) as { image: unknown }).image;
  /** The local ids of an edit of the picked image run on `targets`. */
  const edit = async (targets: readonly { provider: string; model: string }[]) => {
    const run = { prompt: 'make it warmer', inputs: { operation: 'edit', source }, targets };
    const { items } = okValue(await request('edit:run', run)) as {
      items: { record: { localId: string } }[];
    };
    return items.map((item) => item.record.localId);
  };
  const records = (localIds: readonly string[]) =>
    localIds.map((localId) => runtime.core.engine.get(localId));
  return { runtime, edit, hung, records };
}

const statuses = (records: readonly (TaskRecord | undefined)[]) =>
  records.map((record) => record?.status);

describe('a service that never answers its submits', () => {
  it('its edits are all sent, not one at a time; the other services’ edits are sent and complete meanwhile', async () => {
    const { runtime, edit, hung, records } = await app();
    const hungIds = await edit([HUNG, HUNG, HUNG]);
    await vi.waitFor(() => expect(hung.open()).toBeGreaterThanOrEqual(1), UNTIL);
    const otherIds = await edit([...ANSWERING, ...ANSWERING]);
    const others = await runtime.core.engine.whenSettled(otherIds);
    // Settled while the hung service still holds its submits: its tasks wait, none gave up.
    expect(statuses(records(hungIds)), 'the hung service’s tasks').toEqual(
      hungIds.map(() => 'submitting'),
    );
    expect(statuses(others)).toEqual(otherIds.map(() => 'completed'));
    // Not one at a time: each let its turn go once its body was sent.
    await vi.waitFor(() => expect(hung.open()).toBe(hungIds.length), UNTIL);
    // Let go, the hung service's tasks complete as well.
    for (let answered = 0; answered < hungIds.length; answered += 1) hung.answerOldest();
    const done = await runtime.core.engine.whenSettled(hungIds);
    expect(statuses(done)).toEqual(hungIds.map(() => 'completed'));
  });
});
