/**
 * Running a prompt template through the real core against the demo service on loopback: the plan
 * shows exactly the prompts main sends (combinatorial and random), its estimate is what the
 * ledger counts once the tasks are admitted, soft caps warn, a hard cap passes only with the
 * user's yes in main's dialog, one submit makes at most 100 tasks, a batch cut short between the
 * history and the service is never sent twice, and the negative prompt is never sent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { taskRecordSchema } from '../../../shared/domain/task-record';
import { taskTemplateSchema } from '../../../shared/domain/task-template';
import { makeTaskRecord } from '../../support/task-records';
import { TemplateRuns, type TemplateRunInput } from '../../../electron/core/batch/template-runs';
import { SpendingCapError } from '../../../electron/core/errors/spending-cap-error';
import { UserFacingError } from '../../../electron/core/errors/user-facing-error';
import type { OverCapPrompts, OverCapQuestion } from '../../../electron/ports/user-prompts';
import { expandTemplate } from '../../../shared/domain/template-expand';
import { parseTemplate } from '../../../shared/domain/template-language';
import { memoryTemplates } from '../../support/template-source';
import { UNTIL } from '../../support/waits';
import { HISTORY_IN_THREAD, coreAgainstDemo } from './core-harness';

const COLOURS = '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61';
const MANY = '7d0c9a0e-1b2c-4d3e-8f4a-5b6c7d8e9f00';
const BODY = 'a {red|green|blue} __animals__ in {{place=the park}}, {{prompt}}';
const LISTS = { animals: ['cat', 'dog'] };
const NEGATIVE = 'blurry, watermark-7f3a';

function source() {
  return memoryTemplates(
    [
      { id: COLOURS, name: 'Colours', body: BODY, negative: NEGATIVE },
      { id: MANY, name: 'Many', body: '{a|b|c|d|e|f|g|h|i|j|k} {0|1|2|3|4|5|6|7|8|9}' },
    ],
    LISTS,
  );
}

async function harness() {
  // Template runs write and read the history's records on the core's thread; nothing here asks
  // the history's worker (its counts, selections, gallery pages), so no core starts one.
  const h = await coreAgainstDemo(
    { durationMs: { min: 100, max: 200 } },
    {},
    undefined,
    HISTORY_IN_THREAD,
  );
  const runs = new TemplateRuns({
    templates: source(),
    costs: h.core.costs,
    engine: h.core.engine,
  });
  const input = (over: Partial<TemplateRunInput> = {}): TemplateRunInput => ({
    templateId: COLOURS,
    values: { place: 'a garden' },
    prompt: 'at dawn',
    mode: { kind: 'combinatorial' },
    target: h.target,
    request: { size: '256x256' },
    count: 2,
    ...over,
  });
  return { h, runs, input };
}

function expected(input: TemplateRunInput, body = BODY): string[] {
  const parsed = parseTemplate(body);
  if (!parsed.ok) throw new Error('test template');
  const context = {
    values: input.values,
    prompt: input.prompt,
    lists: new Map(Object.entries(LISTS)),
  };
  const result = expandTemplate(parsed.template, context, input.mode);
  if (!result.ok) throw new Error(result.error.sentence.key);
  return result.prompts;
}

const USD_PRICE = {
  provider: 'pictor',
  model: '',
  unit: 'USD',
  basis: 'image',
  micros: 30_000,
} as const;

describe('a template run, planned and sent', () => {
  it.each([
    [{ kind: 'combinatorial' } as const],
    [{ kind: 'random', count: 4, seed: 1 } as const],
    [{ kind: 'random', count: 3, seed: 0xffff_ffff } as const],
    [{ kind: 'random', count: 50, seed: 42 } as const],
  ])('sends exactly the prompts the plan shows (%j), each count times, recorded', async (mode) => {
    const { h, runs, input } = await harness();
    h.core.engine.start();
    const asked = input({ mode });
    const plan = runs.plan(asked);
    expect(plan.prompts).toEqual(expected(asked));
    expect(plan.tasks).toBe(plan.prompts.length * 2);
    const { records } = await runs.run(asked);
    expect(records.map((record) => record.request.prompt)).toEqual(
      plan.prompts.flatMap((prompt) => [prompt, prompt]),
    );
    expect(new Set(records.map((record) => record.batchId))).toEqual(
      new Set([records[0]!.localId]),
    );
    const seed = mode.kind === 'random' ? { seed: mode.seed } : {};
    for (const record of records) {
      expect(record.template).toEqual({
        id: COLOURS,
        name: 'Colours',
        version: 1,
        values: { place: 'a garden', prompt: 'at dawn' },
        mode: mode.kind,
        ...seed,
      });
      expect(h.core.history.get(record.localId)?.template).toEqual(record.template);
    }
    const done = await h.core.engine.whenSettled(records.map((record) => record.localId));
    expect(done.every((record) => record.status === 'completed')).toBe(true);
    expect(h.service.log.submits).toHaveLength(records.length);
    expect(
      h.service
        .tasks()
        .map((task) => task.prompt)
        .sort(),
    ).toEqual(records.map((record) => record.request.prompt).sort());
  });

  it('refuses what the template cannot give, with the sentence, storing nothing', async () => {
    const { h, runs, input } = await harness();
    const refusals: [Partial<TemplateRunInput>, string][] = [
      [{ templateId: '00000000-0000-4000-8000-000000000000' }, 'error.templateRun.notFound'],
      [{ values: { place: 'x'.repeat(2_001) } }, 'error.templateRun.badValues'],
      [
        { values: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`v${i}`, 'x'])) },
        'error.templateRun.badValues',
      ],
      [{ values: { 'not a name': 'x' } }, 'error.templateRun.badValues'],
      [
        { values: JSON.parse('{"__proto__": "x"}') as Record<string, string> },
        'error.templateRun.badValues',
      ],
      [{ values: { place: 7 as unknown as string } }, 'error.templateRun.badValues'],
      [{ count: 0 }, 'error.library.taskCountRange'],
      [{ count: 2.5 }, 'error.library.taskCountRange'],
      [{ mode: { kind: 'random', count: 0, seed: 1 } }, 'error.template.badCount'],
      [{ templateId: MANY }, 'error.template.tooManyPrompts'],
    ];
    for (const [over, key] of refusals) {
      let caught: unknown;
      try {
        runs.plan(input(over));
      } catch (error) {
        caught = error;
      }
      expect(caught, key).toBeInstanceOf(UserFacingError);
      expect((caught as UserFacingError).sentence?.key).toBe(key);
      await expect(runs.run(input(over))).rejects.toBeInstanceOf(UserFacingError);
    }
    expect(h.core.history.list({}).items.length).toBe(0);
  });
});

describe('one submit, at most 100 tasks', () => {
  it('refuses prompts × count over 100, in the plan, the run and the engine', async () => {
    const { h, runs, input } = await harness();
    for (const count of [17, 100]) {
      expect(() => runs.plan(input({ count }))).toThrow(UserFacingError);
      await expect(runs.run(input({ count }))).rejects.toMatchObject({
        sentence: {
          key: 'error.templateRun.tooManyTasks',
          params: { prompts: 6, count, tasks: 6 * count, max: 100 },
        },
      });
    }
    expect(runs.plan(input({ count: 16 })).tasks).toBe(96);
    const requests = Array.from({ length: 6 }, (_, i) => ({ prompt: `p${i}` }));
    await expect(
      h.core.engine.submitBatch({ requests, count: 17 }, h.target),
    ).rejects.toMatchObject({
      sentence: { key: 'error.library.taskCountRange' },
    });
    await expect(h.core.engine.submitBatch({ requests: [], count: 1 }, h.target)).rejects.toThrow();
    expect(h.core.history.list({}).items.length).toBe(0);
    expect(h.service.log.submits).toHaveLength(0);
  });
});

describe('priced before it runs', () => {
  it('estimates what the ledger counts for the same tasks once they are admitted', async () => {
    const { h, runs, input } = await harness();
    h.core.costs.setPrice(USD_PRICE);
    h.core.costs.setPrice({ ...USD_PRICE, model: 'big', micros: 70_000 });
    for (const [request, count] of [
      [{}, 1],
      [{ model: 'big' }, 3],
      [{ size: '512x512' }, 2],
    ] as const) {
      const before = h.core.costs.totals().overall;
      const plan = runs.plan(input({ request, count }));
      expect(plan.estimate.perPrompt.every((cost) => cost.source === 'estimated')).toBe(true);
      const { records } = await runs.run(input({ request, count }));
      expect(records.map((record) => record.cost)).toEqual(
        plan.estimate.perPrompt.flatMap((cost) => Array.from({ length: count }, () => cost)),
      );
      const after = h.core.costs.totals().overall;
      const added = after.map((total) => {
        const was = before.find((one) => one.unit === total.unit);
        return {
          ...total,
          micros: total.micros - (was?.micros ?? 0),
          estimatedMicros: total.estimatedMicros - (was?.estimatedMicros ?? 0),
          tasks: total.tasks - (was?.tasks ?? 0),
        };
      });
      expect(added).toEqual(plan.estimate.totals);
    }
  });

  it('says how many tasks nobody can price', async () => {
    const { runs, input } = await harness();
    const plan = runs.plan(input({ count: 3 }));
    expect(plan.estimate).toMatchObject({ totals: [], unknownTasks: 18 });
  });

  it('warns over a soft cap and sends', async () => {
    const { h, runs, input } = await harness();
    h.core.costs.setPrice(USD_PRICE);
    h.core.costs.setCap({
      period: 'day',
      unit: 'USD',
      provider: null,
      kind: 'soft',
      micros: 100_000,
    });
    const plan = runs.plan(input());
    expect(plan.warnings.map((one) => one.key)).toEqual(['error.costs.softCap']);
    expect(plan.hardCap).toBeNull();
    expect((await runs.run(input())).records).toHaveLength(12);
    expect(
      runs.plan(
        input({ count: 1, templateId: COLOURS, mode: { kind: 'random', count: 1, seed: 3 } }),
      ).warnings,
    ).toHaveLength(1);
  });
});

describe('over a hard cap', () => {
  const HARD = {
    period: 'day',
    unit: 'USD',
    provider: null,
    kind: 'hard',
    micros: 100_000,
  } as const;

  function prompts(answer: boolean) {
    const asked: OverCapQuestion[] = [];
    const port: OverCapPrompts = {
      confirmOverHardCap: async (question) => {
        asked.push(question);
        return answer;
      },
    };
    return { asked, port };
  }

  it('refuses without the user, and when the user says no: nothing stored, nothing sent', async () => {
    const { h, runs, input } = await harness();
    h.core.costs.setPrice(USD_PRICE);
    h.core.costs.setCap(HARD);
    h.core.engine.start();
    const plan = runs.plan(input());
    expect(plan.hardCap?.refusal.key).toBe('error.costs.hardCap');
    expect(plan.hardCap?.caps).toEqual([HARD]);
    await expect(runs.run(input())).rejects.toBeInstanceOf(SpendingCapError);
    const no = prompts(false);
    await expect(runs.run(input(), { prompts: no.port })).rejects.toMatchObject({
      sentence: plan.hardCap?.refusal,
    });
    expect(no.asked).toEqual([{ refusal: plan.hardCap?.refusal, caps: [HARD], tasks: 12 }]);
    // A consent the caller made up (as a page's payload would be) passes no cap.
    const requests = plan.prompts.map((prompt) => ({ prompt }));
    const forged = { requests, count: 2, overHardCaps: { caps: [HARD] } };
    await expect(h.core.engine.submitBatch(forged, h.target)).rejects.toBeInstanceOf(
      SpendingCapError,
    );
    expect(h.core.history.list({}).items.length).toBe(0);
    expect(h.service.log.submits).toHaveLength(0);
  });

  it("passes with the user's yes in main's dialog, for that cap as it stood", async () => {
    const { h, runs, input } = await harness();
    h.core.costs.setPrice(USD_PRICE);
    h.core.costs.setCap(HARD);
    h.core.engine.start();
    const yes = prompts(true);
    const { records } = await runs.run(input(), { prompts: yes.port });
    expect(yes.asked).toHaveLength(1);
    expect(records).toHaveLength(12);
    await h.core.engine.whenSettled(records.map((record) => record.localId));
    expect(h.service.log.submits).toHaveLength(12);
    // Under no hard cap, nobody is asked.
    h.core.costs.clearCaps();
    const none = prompts(true);
    await runs.run(input({ count: 1 }), { prompts: none.port });
    expect(none.asked).toHaveLength(0);
  });
});

describe('a prompt the service refuses for what it asks', () => {
  it('stops its own copies only: the batch’s other prompts are still sent, each once', async () => {
    const { h, runs, input } = await harness();
    // The first submit is refused as a bad request (400): that prompt's own trouble.
    h.service.addFault({ route: 'submit', effect: { type: 'status', status: 400 }, times: 1 });
    h.core.engine.start();
    const { plan, records } = await runs.run(input());
    const after = await h.core.engine.whenSettled(records.map((record) => record.localId));
    const first = after[0]!;
    expect(first).toMatchObject({ status: 'submit_failed', error: { kind: 'bad_request' } });
    // Its copy (count 2) is not sent; the five other prompts' ten tasks are.
    const samePrompt = after.filter((r) => r.request.prompt === first.request.prompt);
    expect(samePrompt.map((record) => record.status)).toEqual(['submit_failed', 'submit_failed']);
    const others = after.filter((r) => r.request.prompt !== first.request.prompt);
    expect(others).toHaveLength(10);
    for (const record of others) expect(record.status).toBe('completed');
    expect(new Set(others.map((record) => record.request.prompt)).size).toBe(
      plan.prompts.length - 1,
    );
    // One refused submit, then ten accepted; none sent twice.
    expect(h.service.log.submits).toHaveLength(11);
  });

  it('an account refusal of the first still stops the whole batch: nothing else is sent', async () => {
    const { h, runs, input } = await harness();
    h.service.addFault({ route: 'submit', effect: { type: 'status', status: 402 }, times: 1 });
    h.core.engine.start();
    const { records } = await runs.run(input());
    const after = await h.core.engine.whenSettled(records.map((record) => record.localId));
    expect(after.every((record) => record.status === 'submit_failed')).toBe(true);
    expect(h.service.log.submits).toHaveLength(1);
  });
});

describe('a batch cut short between the history and the service', () => {
  it('is taken up after a restart: the tasks never sent are sent, and none twice', async () => {
    const { h, runs, input } = await harness();
    h.service.addFault({ route: 'submit', effect: { type: 'hang' }, times: 1 });
    h.core.engine.start();
    const { records } = await runs.run(input());
    await vi.waitFor(() => expect(h.service.log.submits).toHaveLength(1), UNTIL);
    await h.core.close();
    const sent = h.service.log.submits.length;
    expect(sent).toBe(1);
    h.core = await h.open();
    h.core.engine.start();
    const after = await h.core.engine.whenSettled(records.map((record) => record.localId));
    expect(after).toHaveLength(12);
    // The first, which reached the service unanswered, is never sent again; the others, which
    // waited for it and were never sent (marked so: send-mark.ts), are sent now, once each.
    expect(after.map((record) => record.status)).toEqual([
      'submit_unknown',
      ...Array.from({ length: 11 }, () => 'completed'),
    ]);
    for (const record of after) expect(record.template?.id).toBe(COLOURS);
    expect(h.service.log.submits).toHaveLength(sent + 11);
    expect(new Set(after.slice(1).map((record) => record.taskId)).size).toBe(11);
  });
});

describe('the negative prompt', () => {
  it('is shown with why it is not sent, and never reaches the service', async () => {
    const { h, runs, input } = await harness();
    const bodies: string[] = [];
    const real = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      return real(url, init);
    });
    try {
      h.core.engine.start();
      const plan = runs.plan(input());
      expect(plan.negative).toEqual({
        text: NEGATIVE,
        sent: false,
        why: { key: 'error.templateRun.negativeNotSent', params: { service: expect.any(String) } },
      });
      const { records } = await runs.run(input());
      await h.core.engine.whenSettled(records.map((record) => record.localId));
      expect(bodies.length).toBeGreaterThanOrEqual(12);
      expect(bodies.some((body) => body.includes('watermark-7f3a'))).toBe(false);
      expect(
        runs.plan(input({ templateId: MANY, mode: { kind: 'random', count: 2, seed: 5 } }))
          .negative,
      ).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('recorded', () => {
  it('keeps the template in the sidecar, back through rebuild, and filters by it', async () => {
    const { h, runs, input } = await harness();
    h.core.engine.start();
    const { records } = await runs.run(
      input({ mode: { kind: 'random', count: 2, seed: 9 }, count: 1 }),
    );
    const other = await h.core.engine.submit({ prompt: 'no template' }, h.target);
    const ids = [...records, ...other].map((record) => record.localId);
    const done = await h.core.engine.whenSettled(ids);
    expect(done.every((record) => record.status === 'completed')).toBe(true);
    const template = records[0]!.template;
    for (const record of done.slice(0, 2)) {
      const sidecar = JSON.parse(
        await readFile(join(h.core.gallery.resolve(record.folder!), 'pictor.json'), 'utf8'),
      ) as { record: { template?: unknown } };
      expect(sidecar.record.template).toEqual(template);
    }
    const listed = (query: { template: string }) => ({
      tasks: h.core.history
        .list(query)
        .items.map((record) => record.localId)
        .sort(),
      images: h.core.history.listImages({ ...query, limit: 100 }).items.length,
    });
    const made = { tasks: records.map((record) => record.localId).sort(), images: 2 };
    expect(listed({ template: COLOURS })).toMatchObject({ tasks: made.tasks });
    expect(listed({ template: COLOURS }).images).toBeGreaterThanOrEqual(made.images);
    expect(listed({ template: MANY })).toEqual({ tasks: [], images: 0 });
    // The history loses them; rebuild reads them back from their sidecars, template and all.
    for (const record of records) await h.core.engine.remove(record.localId);
    expect(listed({ template: COLOURS }).tasks).toEqual([]);
    await h.core.operations.rebuild();
    for (const record of records) {
      expect(h.core.history.get(record.localId)?.template).toEqual(template);
    }
    expect(listed({ template: COLOURS }).tasks).toEqual(made.tasks);
  });

  it('reads a hostile template field as none, keeping the task', () => {
    const base = { id: COLOURS, name: 'Colours', version: 1, mode: 'combinatorial' };
    const hostile: unknown[] = [
      { ...base, values: { a: 'x'.repeat(2_001) } },
      { ...base, values: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`v${i}`, ''])) },
      { ...base, values: { a: 1 } },
      { ...base, values: [] },
      { ...base, values: {}, id: 'not-a-uuid' },
      { ...base, values: {}, version: 0 },
      { ...base, values: {}, mode: 'all' },
      { ...base, values: {}, seed: -1 },
      { ...base, values: {}, name: 'bad\u202ename' },
      'template',
      null,
    ];
    const record = makeTaskRecord({ localId: 'hostile' });
    for (const template of hostile) {
      const parsed = taskRecordSchema().safeParse({ ...record, template });
      expect(parsed.success).toBe(true);
      expect(parsed.data?.template).toBeUndefined();
      expect(taskTemplateSchema().safeParse(template).success).toBe(false);
    }
    const fine = { ...base, values: { a: 'x'.repeat(2_000) }, seed: 0xffff_ffff };
    expect(taskRecordSchema().parse({ ...record, template: fine }).template).toEqual(fine);
  });
});
