/**
 * Sending again through the real core (SQLite history, the demo service on loopback) and the
 * app's one `tasks:resend` handler. A batch's Rerun (`batch`): a template's batch of six prompts is sent again as one new
 * batch, each prompt once and in the order the template expanded them, with new local ids, new
 * service tasks, its template and board, the old tasks untouched; a batch of one prompt × 3 stays
 * three of that prompt. Tasks of two batches, or ids the history lacks, are refused with nothing
 * stored or sent. `each` (a task's Submit again, the selection's action): every task its own new
 * task, an id the history lacks skipped (all of them: refused with a sentence). One cap policy for
 * all: priced at once, over a hard cap main's dialog asks once as a template run's does (no, or
 * nobody to ask: refused with the cap's sentence, nothing stored or sent), each new task counted
 * once.
 */
import { describe, expect, it } from 'vitest';
import { resend } from '../../../electron/core/batch/resend';
import { TemplateRuns } from '../../../electron/core/batch/template-runs';
import { SpendingCapError } from '../../../electron/core/errors/spending-cap-error';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import type { OverCapPrompts, OverCapQuestion } from '../../../electron/ports/user-prompts';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';

type Outcome = { items: TaskItem[]; skipped: number };
import { ipcCaller, okValue } from '../../support/ipc';
import { memoryTemplates } from '../../support/template-source';
import { trashFixture } from '../../support/trash-fixture';
import { HISTORY_IN_THREAD, clockedCoreAgainstDemo as coreAgainstDemo } from './core-harness';

const TEMPLATE = '5b1e0c3a-9d2f-4e61-8a7b-3c4d5e6f7a80';
const BODY = 'A red fox on a hill {at dawn|at noon|at dusk}, ink {sketch|poster}';
const PROMPTS = ['at dawn', 'at noon', 'at dusk'].flatMap((time) =>
  ['sketch', 'poster'].map((kind) => `A red fox on a hill ${time}, ink ${kind}`),
);
const BOARD = 'Fox studies';

const PRICE = {
  provider: 'pictor',
  model: '',
  unit: 'USD',
  basis: 'image',
  micros: 20_000,
} as const;
/** Room for the six tasks of the run, not for six more. */
const HARD = { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 150_000 } as const;

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

async function harness(overCap?: OverCapPrompts) {
  // Resending reads and writes the history's records on the core's thread; nothing here asks the
  // history's worker (tasks:resend takes ids, not a filter's count or selection).
  const h = await coreAgainstDemo(
    { durationMs: { min: 100, max: 200 } },
    {},
    { historyPort: HISTORY_IN_THREAD },
  );
  const runs = new TemplateRuns({
    templates: memoryTemplates([{ id: TEMPLATE, name: 'Fox studies', body: BODY }], {}),
    costs: h.core.costs,
    engine: h.core.engine,
  });
  const handlers = taskHandlers({
    core: h.core,
    chooseFolder: async () => null,
    emit: () => undefined,
    changes: { removed: () => undefined, refused: () => undefined },
    trash: trashFixture(h.core, h.dir).trash,
    ...(overCap ? { overCap } : {}),
  }) as IpcHandlers;
  const call = ipcCaller(handlers);
  /** The window's send again of the tasks `localIds`, through the app's handler. */
  const send = (localIds: readonly string[], as: 'each' | 'batch') =>
    call('tasks:resend', { localIds: [...localIds], as });
  const rerun = (localIds: readonly string[]) => send(localIds, 'batch');
  h.core.engine.start();
  return { h, runs, rerun, send };
}

/** The template's run: six prompts, one task each, into a board; settled. */
async function templateBatch(t: Awaited<ReturnType<typeof harness>>) {
  const { records } = await t.runs.run({
    templateId: TEMPLATE,
    values: {},
    prompt: '',
    mode: { kind: 'combinatorial' },
    target: t.h.target,
    request: { size: '64x64' },
    count: 1,
    board: BOARD,
  });
  return t.h.settle(records.map((record) => record.localId));
}

const stored = (t: Awaited<ReturnType<typeof harness>>, records: readonly TaskRecord[]) =>
  records.map((record) => t.h.core.history.get(record.localId));

describe("a template batch's Rerun", () => {
  it('sends each of its six prompts once, as one new batch in its order; the old tasks stay', async () => {
    const t = await harness();
    const old = await templateBatch(t);
    expect(old.map((record) => record.request.prompt)).toEqual(PROMPTS);
    expect(old.map((record) => record.batchIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(old.every((record) => record.status === 'completed')).toBe(true);
    const before = stored(t, old);
    const serviceIds = new Set(old.map((record) => record.taskId));

    // The window names the tasks in any order (and one twice); main reads them and keeps theirs.
    const named = [...old].reverse().map((record) => record.localId);
    const { items } = okValue(await t.rerun([...named, named[0]!])) as Outcome;
    const made = items.map((item) => item.record);
    expect(made.map((record) => record.request.prompt)).toEqual(PROMPTS);
    expect(made.map((record) => record.batchIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(made.map((record) => record.batchId))).toEqual(new Set([made[0]!.localId]));
    for (const record of made) {
      expect(old.some((one) => one.localId === record.localId)).toBe(false);
      expect(record.batchId).not.toBe(old[0]!.batchId);
      expect(record.template).toEqual(old[0]!.template);
      expect(record.board).toBe(old[0]!.board);
      expect(record.endpoint).toBe(old[0]!.endpoint);
      expect(record.request).toEqual({ prompt: record.request.prompt, size: '64x64' });
    }

    const done = await t.h.settle(made.map((record) => record.localId));
    expect(done.every((record) => record.status === 'completed')).toBe(true);
    expect(done.every((record) => record.taskId !== null && !serviceIds.has(record.taskId))).toBe(
      true,
    );
    // Twelve submits in all: each prompt once by the run, once by the Rerun; none sent twice.
    expect(t.h.service.log.submits).toHaveLength(12);
    const sent = t.h.service.tasks().map((task) => task.prompt);
    for (const prompt of PROMPTS) expect(sent.filter((one) => one === prompt)).toHaveLength(2);
    // The old tasks are as they were: not sent again, not changed.
    expect(stored(t, old)).toEqual(before);
    expect(t.h.core.history.list({}).items).toHaveLength(12);
  });

  it('passes a hard cap only with the yes of main’s dialog, as the template’s run does', async () => {
    const no = prompts(false);
    const t = await harness(no.port);
    t.h.core.costs.setPrice(PRICE);
    t.h.core.costs.setCap(HARD);
    const old = await templateBatch(t);
    const ids = old.map((record) => record.localId);
    const refused = await t.rerun(ids);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad_input', sentence: { key: 'error.costs.hardCap' } },
    });
    expect(no.asked).toEqual([
      { refusal: expect.objectContaining({ key: 'error.costs.hardCap' }), caps: [HARD], tasks: 6 },
    ]);
    expect(t.h.core.history.list({}).items).toHaveLength(6);
    expect(t.h.service.log.submits).toHaveLength(6);

    const yes = prompts(true);
    const { records: made } = await resend(t.h.core, ids, { as: 'batch', prompts: yes.port });
    expect(yes.asked).toHaveLength(1);
    expect(made.map((record) => record.request.prompt)).toEqual(PROMPTS);
    await t.h.settle(made.map((record) => record.localId));
    expect(t.h.service.log.submits).toHaveLength(12);
  });
});

describe("any batch's Rerun", () => {
  it('sends a batch of one prompt × 3 as three of that prompt, one new batch', async () => {
    const t = await harness();
    const first = await t.h.core.engine.submit({ prompt: 'a paper boat' }, t.h.target, 3);
    const old = await t.h.settle(first.map((record) => record.localId));
    const { items } = okValue(await t.rerun(old.map((r) => r.localId))) as Outcome;
    const made = items.map((item) => item.record);
    expect(made.map((record) => record.request.prompt)).toEqual(Array(3).fill('a paper boat'));
    expect(made.every((record) => record.batchId === made[0]!.localId)).toBe(true);
    expect(made.every((record) => record.template === undefined)).toBe(true);
    await t.h.settle(made.map((record) => record.localId));
    expect(t.h.service.log.submits).toHaveLength(6);
  });

  it('refuses tasks of two batches, tasks the history lacks, and too many: nothing sent', async () => {
    const t = await harness();
    const one = await t.h.core.engine.submit({ prompt: 'one' }, t.h.target, 2);
    const two = await t.h.core.engine.submit({ prompt: 'two' }, t.h.target, 2);
    const alone = await t.h.core.engine.submit({ prompt: 'alone' }, t.h.target);
    await t.h.settle([...one, ...two, ...alone].map((record) => record.localId));
    const submits = t.h.service.log.submits.length;
    const mixed = [one[0]!.localId, two[0]!.localId];
    for (const [localIds, key] of [
      [mixed, 'error.submit.notOneBatch'],
      [[one[0]!.localId, alone[0]!.localId], 'error.submit.notOneBatch'],
      [[one[0]!.localId, 'no-such-task'], 'error.library.taskNotInHistory'],
    ] as const) {
      await expect(resend(t.h.core, localIds, { as: 'batch' })).rejects.toMatchObject({
        sentence: { key },
      });
    }
    const many = Array.from({ length: 101 }, (_, n) => `task-${n}`);
    expect(await t.rerun(many)).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.library.taskCountRange' } },
    });
    expect(t.h.core.history.list({}).items).toHaveLength(5);
    expect(t.h.service.log.submits).toHaveLength(submits);
  });

  it('asks main’s dialog over a hard cap as a template run does: no refuses, yes sends', async () => {
    const no = prompts(false);
    const t = await harness(no.port);
    t.h.core.costs.setPrice(PRICE);
    const first = await t.h.core.engine.submit({ prompt: 'a priced boat' }, t.h.target, 3);
    await t.h.settle(first.map((record) => record.localId));
    const cap = { ...HARD, micros: 80_000 };
    t.h.core.costs.setCap(cap);
    const ids = first.map((r) => r.localId);
    expect(await t.rerun(ids)).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.costs.hardCap' } },
    });
    expect(no.asked).toEqual([
      { refusal: expect.objectContaining({ key: 'error.costs.hardCap' }), caps: [cap], tasks: 3 },
    ]);
    // Nobody to ask (the CLI, a harness): refused the same way.
    await expect(resend(t.h.core, ids, { as: 'batch' })).rejects.toBeInstanceOf(SpendingCapError);
    expect(t.h.core.history.list({}).items).toHaveLength(3);
    expect(t.h.service.log.submits).toHaveLength(3);

    const yes = prompts(true);
    const { records } = await resend(t.h.core, ids, { as: 'batch', prompts: yes.port });
    expect(yes.asked).toHaveLength(1);
    await t.h.settle(records.map((record) => record.localId));
    expect(t.h.service.log.submits).toHaveLength(6);
  });
});

describe('each task again', () => {
  it('makes each its own new task; an id the history lacks is skipped, all of them refused', async () => {
    const t = await harness();
    const one = await t.h.core.engine.submit({ prompt: 'one' }, t.h.target, 2);
    const old = await t.h.settle(one.map((record) => record.localId));
    const ids = old.map((record) => record.localId);
    const outcome = okValue(await t.send([...ids, 'no-such-task'], 'each')) as Outcome;
    expect(outcome.skipped).toBe(1);
    const made = outcome.items.map((item) => item.record);
    expect(made).toHaveLength(2);
    // Each one alone: in no batch, as one submit of one task is.
    expect(made.map((record) => record.batchId)).toEqual([undefined, undefined]);
    for (const record of made) expect(ids).not.toContain(record.localId);
    expect(await t.send(['no-such-task', 'nor-this'], 'each')).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.library.taskNotInHistory' } },
    });
    await t.h.settle(made.map((record) => record.localId));
    expect(t.h.service.log.submits).toHaveLength(4);
    expect(t.h.core.history.list({}).items).toHaveLength(4);
  });

  it('`onlyFailed` skips the tasks that did not fail, as the selection’s action does', async () => {
    const t = await harness();
    const done = await t.h.core.engine.submit({ prompt: 'done' }, t.h.target);
    await t.h.settle(done.map((record) => record.localId));
    const outcome = await resend(t.h.core, [done[0]!.localId], { as: 'each', onlyFailed: true });
    expect(outcome).toEqual({ records: [], skipped: 1 });
    expect(t.h.service.log.submits).toHaveLength(1);
  });

  it('is asked once for all its tasks over a hard cap; refused, nothing leaves', async () => {
    const no = prompts(false);
    const t = await harness(no.port);
    t.h.core.costs.setPrice(PRICE);
    const first = await t.h.core.engine.submit({ prompt: 'a priced kite' }, t.h.target, 3);
    await t.h.settle(first.map((record) => record.localId));
    const cap = { ...HARD, micros: 80_000 };
    t.h.core.costs.setCap(cap);
    // One alone fits under the cap (60,000 spent, 20,000 more): the three together do not.
    const one = t.h.core.costs.preview(t.h.target, first[0]!.request);
    expect(one.refusal).toBeUndefined();
    expect(
      await t.send(
        first.map((r) => r.localId),
        'each',
      ),
    ).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.costs.hardCap' } },
    });
    expect(no.asked.map((question) => question.tasks)).toEqual([3]);
    expect(t.h.core.history.list({}).items).toHaveLength(3);
    expect(t.h.service.log.submits).toHaveLength(3);
  });

  it('counts a priced task sent again once, at its price', async () => {
    const t = await harness();
    t.h.core.costs.setPrice(PRICE);
    const first = await t.h.core.engine.submit({ prompt: 'a priced heron' }, t.h.target);
    await t.h.settle(first.map((record) => record.localId));
    const spent = () => t.h.core.costs.capSpend({ period: 'day', unit: 'USD', provider: null });
    expect(spent().micros).toBe(20_000);
    const { records } = await resend(t.h.core, [first[0]!.localId], { as: 'each' });
    expect(records).toHaveLength(1);
    await t.h.settle(records.map((record) => record.localId));
    expect(spent().micros).toBe(40_000);
    expect(t.h.core.costs.entries({})).toHaveLength(2);
  });
});
