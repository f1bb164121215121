/**
 * The compare channels over a real AppRuntime and the IPC bridge that parses every request,
 * against the demo service's bfl and fal dialects on loopback: the page chooses services, models
 * and parameters, never an address or a key (a target carrying a base URL is refused as bad
 * input, and main sends to the address its own settings give that service); a target without a
 * key is left out with its sentence; over a hard cap `compare:run` is refused with the cap's
 * sentence and nothing is stored; a group is a UUID; the group comes back by slot, the gallery's
 * filter lists it (a bounded number of groups, nothing else asked) and its images, and Cancel all
 * asks for its unfinished tasks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import { englishText } from '../../../shared/i18n/sentence';
import type { TaskItem } from '../../../shared/ipc/contract';
import { testImageEngine } from '../../support/image-engine';
import { wiredIpc } from '../../support/wired-ipc';

const FAL_KEY = 'fal-key-LEAKCANARY-9876543210';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The app with fal's address set to the fal demo dialect and its key; BFL has no key. */
async function app() {
  const { runtime, request } = await wiredIpc(cleanups, { prefix: 'pictor-compare-ipc-' });
  const fal = await startDemoService({
    dialect: 'fal',
    durationMs: 100,
    images: testImageEngine,
    accounts: [{ account: 'fal-user', key: FAL_KEY }],
  });
  cleanups.push(() => fal.close());
  expect(await request('settings:update', { serviceBaseUrls: { fal: fal.url } })).toMatchObject({
    ok: true,
  });
  expect(
    await request('keys:set', { provider: 'fal', key: FAL_KEY, allowWeakStorage: false }),
  ).toMatchObject({ ok: true });
  fal.log.requests.splice(0);
  return { runtime, request, fal };
}

const target = (provider: string, model?: string) => ({
  provider,
  ...(model === undefined ? {} : { model }),
});

describe('compare over IPC', () => {
  it('refuses what a compromised page may send, as bad input, before anything is planned', async () => {
    const { runtime, request, fal } = await app();
    const two = [target('fal', 'fal-ai/flux/dev'), target('pictor')];
    const hostile: unknown[] = [
      { prompts: ['a lake'], targets: Array.from({ length: 7 }, () => target('pictor')) },
      { prompts: ['a lake'], targets: [target('pictor')] },
      { prompts: [], targets: two },
      { prompts: Array.from({ length: 11 }, () => 'a lake'), targets: two },
      { prompts: ['a lake'], targets: [{ ...two[0], baseUrl: 'http://127.0.0.1:1' }, two[1]] },
      { prompts: ['a lake'], targets: [{ ...two[0], key: FAL_KEY }, two[1]] },
      { prompts: ['a lake'], targets: [target('nope'), two[1]] },
      { prompts: ['a lake'], targets: [{ ...two[0], count: 11 }, two[1]] },
      { prompts: ['x'.repeat(100_000)], targets: two },
      { prompts: ['a lake'], targets: two, baseUrl: 'http://127.0.0.1:1' },
      'a lake',
      null,
    ];
    for (const channel of ['compare:plan', 'compare:run'] as const) {
      for (const input of hostile) {
        const answer = await request(channel, input as never);
        expect(answer, JSON.stringify(input).slice(0, 200)).toMatchObject({
          ok: false,
          error: { code: 'bad_input' },
        });
      }
    }
    for (const group of [
      '',
      'not-a-uuid',
      '../../etc',
      "1' OR '1'='1",
      '\u202Egroup',
      'x'.repeat(5000),
    ]) {
      for (const channel of ['compare:show', 'compare:cancel'] as const) {
        expect(await request(channel, { group })).toMatchObject({
          ok: false,
          error: { code: 'bad_input' },
        });
      }
    }
    // The groups' listing: a number of 1 to 200, nothing else.
    for (const input of [
      { limit: 0 },
      { limit: 201 },
      { limit: 1.5 },
      { limit: -1 },
      { limit: '5' },
      { limit: 1e300 },
      { limit: 5, group: '5b0c7c7e-1d1f-4a8e-9c6b-2f7e1f1e1e1e' },
      { __proto__: { limit: 5 }, polluted: true },
      'groups',
      null,
    ]) {
      expect(await request('compare:groups', input as never), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(await request('gallery:list', { compared: 'yes' } as never)).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(runtime.core.history.taskIds({}, 10)).toEqual([]);
    expect(fal.log.requests.filter((entry) => entry.route === 'submit')).toEqual([]);
  });

  it('leaves out a target with no key with its sentence, sends the rest to main’s own address', async () => {
    const { runtime, request, fal } = await app();
    const input = {
      prompts: ['a lake at dawn'],
      targets: [
        target('fal', 'fal-ai/flux/dev'),
        target('bfl', 'flux-pro-1.1'),
        target('fal', 'fal-ai/flux/dev'),
      ],
    };
    const plan = await request('compare:plan', input);
    if (!plan.ok) throw new Error(JSON.stringify(plan.error));
    expect(plan.value.targets.map((t) => [t.slot, t.label])).toEqual([
      [1, 'fal.ai · fal-ai/flux/dev #1'],
      [3, 'fal.ai · fal-ai/flux/dev #2'],
    ]);
    expect(plan.value.leftOut).toEqual([
      {
        slot: 2,
        label: expect.stringContaining('flux-pro-1.1'),
        // The facts the dialog names it by, as a kept target's tasks keep them.
        service: 'bfl',
        model: 'flux-pro-1.1',
        reason: {
          key: 'error.submit.noKeyThere',
          params: { host: expect.stringMatching(/^(?!Left out).+/) },
        },
      },
    ]);
    expect(plan.value.refusal).toBeUndefined();
    // The plan sent nothing and stored nothing.
    expect(runtime.core.history.taskIds({}, 10)).toEqual([]);

    const ran = await request('compare:run', input);
    if (!ran.ok) throw new Error(JSON.stringify(ran.error));
    const ids = ran.value.items.map((item: TaskItem) => item.record.localId);
    expect(ids).toHaveLength(2);
    const done = await runtime.core.engine.whenSettled(ids);
    expect(done.map((record) => record.endpoint)).toEqual([fal.url, fal.url]);
    expect(JSON.stringify(fal.log.requests)).not.toContain('bfl');

    const shown = await request('compare:show', { group: ran.value.group });
    if (!shown.ok) throw new Error(JSON.stringify(shown.error));
    expect(shown.value.items.map((item) => item.record.compare)).toEqual([
      {
        group: ran.value.group,
        slot: 1,
        label: 'fal.ai · fal-ai/flux/dev #1',
        service: 'fal',
        model: 'fal-ai/flux/dev',
        nth: 1,
      },
      {
        group: ran.value.group,
        slot: 3,
        label: 'fal.ai · fal-ai/flux/dev #2',
        service: 'fal',
        model: 'fal-ai/flux/dev',
        nth: 2,
      },
    ]);
    // Finished tasks: Cancel all has nothing to ask.
    const cancel = await request('compare:cancel', { group: ran.value.group });
    expect(cancel).toMatchObject({ ok: true, value: { outcomes: [] } });
    // The gallery's filter lists the group, and its images by `compared`.
    expect(await request('compare:groups', {})).toEqual({
      ok: true,
      value: {
        groups: [
          {
            group: ran.value.group,
            prompt: 'a lake at dawn',
            createdAt: expect.any(Number),
            targets: 2,
            tasks: 2,
          },
        ],
      },
    });
    const images = await request('gallery:list', { compared: true });
    if (!images.ok) throw new Error(JSON.stringify(images.error));
    expect(new Set(images.value.items.map((item) => item.localId))).toEqual(new Set(ids));
    // An unknown group is simply empty.
    const other = '5b0c7c7e-1d1f-4a8e-9c6b-2f7e1f1e1e1e';
    expect(await request('compare:show', { group: other })).toEqual({
      ok: true,
      value: { items: [] },
    });
  });

  it('over a hard cap the plan says so and the run is refused with that sentence, nothing stored', async () => {
    const { runtime, request, fal } = await app();
    const price = { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 1_000_000 };
    expect(await request('costs:setPrice', price as never)).toMatchObject({ ok: true });
    const cap = { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1_500_000 };
    expect(await request('costs:setCap', cap as never)).toMatchObject({ ok: true });
    const input = { prompts: ['a lake'], targets: [target('fal', 'a'), target('fal', 'b')] };
    const plan = await request('compare:plan', input);
    if (!plan.ok) throw new Error(JSON.stringify(plan.error));
    expect(plan.value.total.micros).toEqual({ USD: 2_000_000 });
    expect(plan.value.refusal?.key).toBe('error.costs.hardCap');
    const ran = await request('compare:run', input);
    // The run's refusal is the plan's sentence, which the window words in its language.
    expect(ran).toMatchObject({
      ok: false,
      error: { message: englishText(plan.value.refusal!), sentence: plan.value.refusal },
    });
    expect(runtime.core.history.taskIds({}, 10)).toEqual([]);
    expect(fal.log.requests.filter((entry) => entry.route === 'submit')).toEqual([]);
  });
});
