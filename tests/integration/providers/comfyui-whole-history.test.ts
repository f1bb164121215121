/**
 * A proxy in front of ComfyUI that answers `GET /history/<prompt_id>` with the whole history
 * (every prompt it ran, finished or failed, beside the one asked about) — the fault this test
 * injects in the core's transport, over the demo's real ComfyUI dialect on loopback and the
 * manual clock. The task waits, polled again at the engine's interval, until its own entry is
 * there, and keeps its own image: another prompt's end or images are never taken for its own
 * (the reader took the first entry with a status).
 */
import { describe, expect, it } from 'vitest';
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
});
