/**
 * `triage:apply` naming tasks (the task list's Reject) over the app's real wiring: every image of
 * each task flagged as one step that `triage:undo` takes back, a task main does not have counted
 * missing, and a page that names tasks and images at once, too many tasks, or an id out of shape
 * refused before core sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestChannel, RequestInput, Result } from '../../../shared/ipc/contract';
import { flagOf } from '../../../shared/domain/triage';
import { makeImage } from '../../support/task-records';
import { startWiredApi, type WiredApi } from '../../support/wired-api';
import { seedHistory } from '../renderer/render-wired-app';

const opened: WiredApi[] = [];
afterEach(async () => {
  for (const main of opened.splice(0)) await main.close();
});

const idOf = (n: number) => `seed-${String(n).padStart(6, '0')}`;

async function wired(count: number) {
  const main = await startWiredApi();
  opened.push(main);
  seedHistory(main, count, () => ({ images: [makeImage(0), makeImage(1)] }));
  const invoke = <C extends RequestChannel>(channel: C, input: RequestInput<C>) =>
    main.api.invoke(channel, input) as Promise<Result<unknown>>;
  const flags = (n: number) =>
    (main.runtime.core.history.get(idOf(n))?.images ?? []).map((image) => flagOf(image));
  return { invoke, flags };
}

describe('triage of whole tasks over IPC', () => {
  it('rejects every image of the named tasks as one step, and Undo takes it back', async () => {
    const { invoke, flags } = await wired(3);
    const done = await invoke('triage:apply', {
      tasks: [idOf(0), idOf(2), 'not-in-the-library'],
      change: { kind: 'flag', flag: 'reject' },
    });
    expect(done).toMatchObject({ ok: true, value: { changed: 4, missing: 1, canUndo: true } });
    expect([flags(0), flags(1), flags(2)]).toEqual([
      ['reject', 'reject'],
      ['none', 'none'],
      ['reject', 'reject'],
    ]);
    expect(await invoke('triage:undo', undefined)).toMatchObject({ value: { changed: 4 } });
    expect([flags(0), flags(2)]).toEqual([
      ['none', 'none'],
      ['none', 'none'],
    ]);
  });

  it.each([
    ['tasks and images at once', { tasks: [idOf(0)], images: [{ localId: idOf(0), index: 0 }] }],
    ['no task', { tasks: [] }],
    ['an id out of shape', { tasks: ['x'.repeat(101)] }],
    ['an id that is not text', { tasks: [7] }],
    [
      'more tasks than a selection holds',
      { tasks: Array.from({ length: 100_001 }, (_, n) => idOf(n % 3)) },
    ],
  ])('refuses %s before core sees it', async (_, named) => {
    const { invoke, flags } = await wired(1);
    const input = { ...named, change: { kind: 'flag', flag: 'reject' } };
    const refused = await invoke('triage:apply', input as unknown as RequestInput<'triage:apply'>);
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(flags(0)).toEqual(['none', 'none']);
  });
});
