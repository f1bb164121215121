/**
 * "Copy as command" of a task kept under an id that carries a key the app holds, before the sweep
 * cleaned its row: a tracked task's prompt is made from its id (`Task <id> (created outside
 * Pictor)`), so the lines main put on the clipboard held the key. Now they are made from the
 * record with every held key scrubbed out, as the sweep will leave it (task-command-handlers.ts).
 * Through the real wired main (wire-app.ts) and its history; the clipboard is the OS stand-in.
 * Controls: the stored prompt carries the key; a task whose id carries none copies as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeTask } from '../../support/task-records';
import { wiredIpc, type Cleanups } from '../../support/wired-ipc';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { ENCODINGS, keptIdEncodings, keyScanner } from './key-encodings';

const KEY = QUIRKY_KEYS.alice;
const leaks = (text: string) => keyScanner(KEY).leaks(text);

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function copiedFor(taskId: string) {
  const wired = await wiredIpc(cleanups, { prefix: 'pictor-kept-command-' });
  await wired.runtime.setKey(KEY, false, 'fal');
  const task = makeTask({
    provider: 'fal',
    endpoint: 'https://queue.fal.run',
    taskId,
    request: { prompt: `Task ${taskId} (created outside Pictor)`, model: 'fal-ai/flux/dev' },
  });
  wired.runtime.core.history.putMany([task]);
  expect(await wired.request('tasks:copyCommand', { localId: task.localId })).toMatchObject({
    ok: true,
  });
  const copied = wired.os.calls.filter((call) => call.action === 'copyText');
  expect(copied).toHaveLength(1);
  return { text: String(copied[0]!.arg), task };
}

describe('Copy as command of a task kept under a key-carrying id', () => {
  // Of these, those a request's id may carry past the task id rule (keptIdEncodings).
  it.each(
    ['raw', 'base64', 'hexUpper', 'percentEveryByte', 'htmlDecimal', 'zeroWidth'].filter((name) =>
      keptIdEncodings(KEY, 0).includes(name),
    ),
  )('copies lines without the key (%s)', async (encoding) => {
    const { text, task } = await copiedFor(`req-${ENCODINGS[encoding]!(KEY, 0)}`);
    expect(leaks(task.request.prompt)).not.toEqual([]);
    expect(text).toContain('pictor generate');
    expect(leaks(text)).toEqual([]);
  });

  it('copies a task whose id carries no key as it is', async () => {
    const { text } = await copiedFor('req-ordinary-42');
    expect(text).toContain('Task req-ordinary-42 (created outside Pictor)');
  });
});
