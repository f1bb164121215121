/**
 * A proxy in front of ComfyUI that answers `GET /history/<prompt_id>` with the whole history
 * (every prompt it ran, finished or failed, beside the one asked about) — the fault this test
 * injects in the core's transport, over the demo's real ComfyUI dialect on loopback and the
 * manual clock. The task waits, polled again at the engine's interval, until its own entry is
 * there, and keeps its own image: another prompt's end or images are never taken for its own
 * (the reader took the first entry with a status). A failed task's reason is read from its own
 * entry only: never from a field standing beside the entries (the proxy's own `error` or
 * `message`, which the common fallback read there).
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../electron/ports/http';
import { providerRig } from './provider-harness';
import { submitOne } from './provider-scenarios';

/** Prompts the proxy's ComfyUI ran for others: finished with their images, or failed. */
const OTHERS = {
  'other-done': {
    status: { status_str: 'success', completed: true, messages: [] },
    outputs: { 9: { images: [{ filename: 'other.png', subfolder: '', type: 'output' }] } },
  },
  'other-failed': {
    status: { status_str: 'error', completed: false, messages: [] },
    outputs: {},
  },
};

describe('comfyui behind a proxy that answers with the whole history', () => {
  it('the task waits for its own entry and keeps its own image', async () => {
    const asked: string[] = [];
    const rig = await providerRig(
      'comfyui',
      { durationMs: 2_000 },
      {},
      {
        fetch: async (url, init) => {
          asked.push(url);
          const response = await fetch(url, init);
          if (!new URL(url).pathname.startsWith('/history/') || response.status !== 200)
            return response;
          const own = (await response.json()) as Record<string, unknown>;
          return Response.json({ ...OTHERS, ...own });
        },
      },
    );
    rig.core.engine.start();
    const localId = await submitOne(rig, 'a lighthouse at dusk');
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({
      status: 'completed',
      error: null,
      images: [{ state: 'saved', mime: 'image/png' }],
    });
    const histories = asked.filter((url) => url.includes('/history/'));
    expect(histories.length).toBeGreaterThan(1);
    // Images come through the download's own transport: the demo's log says which were asked.
    const views = [...rig.service.log.requests, ...rig.service.log.downloads]
      .map((entry) => entry.path)
      .filter((path) => path.startsWith('/view?'));
    expect(views.length).toBeGreaterThan(0);
    for (const path of views)
      expect(new URL(path, rig.service.url).searchParams.get('filename')).not.toBe('other.png');
  });

  /**
   * The core's transport behind such a proxy: the whole history, and beside its entries the
   * proxy's own words about another prompt; the task's own entry is passed to `own`.
   */
  const wholeHistory =
    (own: (entry: Record<string, unknown>) => Record<string, unknown>): FetchLike =>
    async (url, init) => {
      const response = await fetch(url, init);
      if (!new URL(url).pathname.startsWith('/history/') || response.status !== 200)
        return response;
      const answer = (await response.json()) as Record<string, Record<string, unknown>>;
      const entries = Object.entries(answer).map(([id, entry]) => [id, own(entry)] as const);
      return Response.json({
        ...OTHERS,
        ...Object.fromEntries(entries),
        error: 'other-failed: CUDA out of memory on the proxy’s second card',
        message: 'the proxy’s note about other prompts',
      });
    };

  /** An entry failed without an `execution_error` message, holding `extra` beside its status. */
  const failedWithout = (extra: Record<string, unknown>) => (entry: Record<string, unknown>) => {
    const status = entry['status'] as { status_str: string; messages: unknown[] };
    if (status.status_str !== 'error') return entry;
    const messages = status.messages.filter(
      (message) => (message as unknown[])[0] !== 'execution_error',
    );
    return { ...entry, ...extra, status: { ...status, messages } };
  };

  it.each([
    ['says nothing itself, it fails without a reason', {}, undefined],
    ['says why itself, it fails with its own reason', { error: 'node 7 ran out of disk' }, 'disk'],
  ] as const)('a failed task whose entry %s, never another’s', async (_, extra, own) => {
    const rig = await providerRig(
      'comfyui',
      { durationMs: 2_000 },
      {},
      { fetch: wholeHistory(failedWithout(extra)) },
    );
    rig.core.engine.start();
    const localId = await submitOne(rig, 'please fail this one');
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'failed', error: { kind: 'task_failed' } });
    const message = done!.error!.message;
    expect(message).not.toMatch(/CUDA|proxy/);
    if (own === undefined) expect(message).not.toMatch(/disk/);
    else expect(message).toContain(own);
  });
});
