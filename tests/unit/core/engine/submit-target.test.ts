/**
 * A submit's target, checked in the engine before anything is stored or sent: recorded with its
 * normalised address, refused with a sentence when no key of its service may go there; sending
 * again (core/batch/resend.ts) takes the target from the record, never from the credentials'
 * current service.
 */
import { describe, expect, it } from 'vitest';
import { resend, type ResendOptions } from '../../../../electron/core/batch/resend';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeTaskRecord } from '../../../support/task-records';
import { BASE_URL, engineHarness } from './engine-harness';

/** Sends the stored tasks `localIds` again, no cap set; the new tasks. */
async function again(
  h: ReturnType<typeof engineHarness>,
  localIds: readonly string[],
  as: ResendOptions['as'] = 'each',
): Promise<TaskRecord[]> {
  const costs = { previewGroup: () => ({ warnings: [], forecasts: [] }) };
  return (await resend({ engine: h.engine, costs }, localIds, { as })).records;
}

/** The harness, with nothing stored or sent yet. */
function untouched(h: ReturnType<typeof engineHarness>): void {
  expect(h.history.all()).toEqual([]);
  expect(h.client.submits).toEqual([]);
}

describe('the target a submit carries', () => {
  it('records its address as the key is bound to it (normalised), and its service', async () => {
    const h = engineHarness();
    const [record] = await h.engine.submit(
      { prompt: 'a fox' },
      { provider: 'pictor', endpoint: ' https://API.example.com/ ' },
    );
    expect(record).toMatchObject({ endpoint: BASE_URL });
    expect(record!.provider).toBeUndefined();
    await h.clock.advance(0);
    expect(h.client.submits).toHaveLength(1);
  });

  it.each([
    [
      'an address with no key',
      { provider: 'pictor', endpoint: 'https://elsewhere.example' },
      { key: 'error.submit.noKeyThere', params: { host: 'elsewhere.example' } },
    ],
    [
      'another service at the key’s address',
      { provider: 'fal', endpoint: BASE_URL },
      { key: 'error.submit.otherService', params: { host: 'api.example.com' } },
    ],
    [
      'the demo where none runs',
      { provider: 'pictor', endpoint: 'demo:' },
      { key: 'error.submit.demoNotRunning' },
    ],
    [
      'the demo of a dialect where none runs',
      { provider: 'fal', endpoint: 'demo:fal' },
      { key: 'error.submit.demoNotRunning' },
    ],
    [
      'the demo of another service’s dialect',
      { provider: 'pictor', endpoint: 'demo:fal' },
      { key: 'error.submit.demoDialect', params: { endpoint: 'demo:fal' } },
    ],
    [
      'today’s contract’s demo for another service',
      { provider: 'bfl', endpoint: 'demo:' },
      { key: 'error.submit.demoDialect', params: { endpoint: 'demo:' } },
    ],
    [
      'a demo of a dialect it does not speak',
      { provider: 'fal', endpoint: 'demo:flux' },
      { key: 'error.submit.demoDialect', params: { endpoint: 'demo:flux' } },
    ],
    [
      'a demo named for today’s contract by its provider’s id',
      { provider: 'pictor', endpoint: 'demo:pictor' },
      { key: 'error.submit.demoDialect', params: { endpoint: 'demo:pictor' } },
    ],
    [
      'an address Pictor sends nothing to',
      { provider: 'pictor', endpoint: 'http://api.example.com' },
      { key: 'error.service.serviceUrlPlainHttp' },
    ],
  ] as const)('refuses %s before storing or sending anything', async (_what, target, said) => {
    const h = engineHarness();
    await expect(h.engine.submit({ prompt: 'a fox' }, target)).rejects.toMatchObject({
      code: 'failed',
      sentence: said,
    });
    untouched(h);
  });
});

describe('submit again', () => {
  const stored = (overrides: Partial<TaskRecord>): TaskRecord =>
    makeTaskRecord({
      localId: 'old-1',
      status: 'failed',
      endpoint: BASE_URL,
      request: { prompt: 'again', model: 'm-1' },
      ...overrides,
    });

  it('sends the record’s request to the record’s service, as one new task', async () => {
    const h = engineHarness();
    h.history.put(stored({}));
    const [made] = await again(h, ['old-1']);
    expect(made).toMatchObject({
      endpoint: BASE_URL,
      request: { prompt: 'again', model: 'm-1' },
      origin: 'submitted',
    });
    expect(made!.localId).not.toBe('old-1');
  });

  it('makes a batch’s Rerun one new batch of the records’ requests, one batch id', async () => {
    const h = engineHarness();
    for (const localId of ['old-1', 'old-2', 'old-3']) {
      h.history.put(stored({ localId, batchId: 'old-1' }));
    }
    const made = await again(h, ['old-1', 'old-2', 'old-3'], 'batch');
    expect(made).toHaveLength(3);
    for (const record of made) {
      expect(record).toMatchObject({
        endpoint: BASE_URL,
        request: { prompt: 'again', model: 'm-1' },
      });
    }
    expect(new Set(made.map((record) => record.batchId))).toEqual(new Set([made[0]!.localId]));
    expect(made.map((record) => record.localId)).not.toContain('old-1');
  });

  it('refuses a record of another service than the key’s, whatever the credentials serve now', async () => {
    const h = engineHarness();
    h.history.put(stored({ provider: 'bfl' }));
    await expect(again(h, ['old-1'])).rejects.toMatchObject({
      sentence: { key: 'error.submit.otherService' },
    });
    expect(h.history.all()).toHaveLength(1);
    expect(h.client.submits).toEqual([]);
  });

  it('never contacts this computer for a record imported from a file', async () => {
    const h = engineHarness();
    h.history.put(stored({ imported: true, endpoint: 'demo:' }));
    await expect(again(h, ['old-1'])).rejects.toMatchObject({
      sentence: { key: 'error.settings.importedLocal' },
    });
    expect(h.client.submits).toEqual([]);
  });

  it('sends an imported record’s request only under the key bound to its address', async () => {
    const h = engineHarness();
    h.history.put(stored({ imported: true, endpoint: 'https://crafted.example' }));
    await expect(again(h, ['old-1'])).rejects.toMatchObject({
      sentence: { key: 'error.submit.noKeyThere' },
    });
    h.history.put(stored({ localId: 'old-2', imported: true }));
    const [made] = await again(h, ['old-2']);
    expect(made).toMatchObject({ endpoint: BASE_URL });
    expect(made!.imported).toBeUndefined();
  });

  it('refuses a task the history does not hold', async () => {
    const h = engineHarness();
    await expect(again(h, ['nobody'])).rejects.toMatchObject({
      sentence: { key: 'error.library.taskNotInHistory' },
    });
    untouched(h);
  });
});
