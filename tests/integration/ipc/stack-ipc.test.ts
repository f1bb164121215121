/**
 * `images:stack` over a real AppRuntime and the IPC bridge that parses every request and answer:
 * an edit's result and its parent are one stack from either image, an image the library lacks
 * is refused with its sentence, and a request that is not an image reference is bad input.
 */
import { createHash } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';
import { makeImage, makeTaskRecord } from '../../support/task-records';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const app = () => wiredIpc(cleanups, { prefix: 'pictor-stack-ipc-' });

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function record(localId: string, at: number, parent?: TaskRecord): TaskRecord {
  const source = {
    sha256: sha(localId),
    mime: 'image/png',
    width: 8,
    height: 8,
    bytes: 99,
  } as const;
  return makeTaskRecord({
    localId,
    createdAt: at,
    request: {
      prompt: `p ${localId}`,
      ...(parent
        ? { inputs: { operation: 'edit', source, parent: { localId: parent.localId, index: 0 } } }
        : {}),
    },
    images: [makeImage(0)],
  });
}

it('answers the stack of an edit and its parent, from either image', async () => {
  const { runtime, request } = await app();
  const root = record('root-task', 1_000);
  const edit = record('edit-task', 2_000, root);
  runtime.core.history.putMany([root, edit]);
  for (const localId of [root.localId, edit.localId]) {
    const stack = okValue(await request('images:stack', { localId, index: 0 }));
    expect(stack).toMatchObject({
      original: { kind: 'library', localId: root.localId, index: 0 },
      entries: [
        { localId: root.localId, operation: null },
        { localId: edit.localId, operation: 'edit', parent: { localId: root.localId, index: 0 } },
      ],
    });
  }
});

it('refuses an image the library lacks with its sentence, and a malformed reference', async () => {
  const { request } = await app();
  const missing = await request('images:stack', { localId: 'no-such-task', index: 0 });
  expect(missing).toMatchObject({
    ok: false,
    error: { sentence: { key: 'error.lineage.noImage' } },
  });
  const crafted = await request('images:stack', { localId: 'x', index: -1, path: '/etc' });
  expect(crafted).toMatchObject({ ok: false, error: { code: 'bad_input' } });
});
