/**
 * `pictor mcp --max-spend`: `resume` of a task stored but never sent (a batch's tail, left when
 * its process ended) is that task's first submit, a paid request that leaves through this
 * connection: it counts against this connection's limit as a generate would. Otherwise one
 * process (the app, the CLI, a connection with no limit or one that is killed at once) leaves
 * tasks queued, and a connection under a limit sends them all, past its limit, uncounted. The
 * real CLI over stdio, on the demo service on loopback; what the service was sent is judged.
 */
import { describe, expect, it, vi } from 'vitest';
import { answerOf, mcpLibrary, onService } from '../../integration/mcp/mcp-harness';

const KEY = 'sk-mcp-resume-Hq7wT3zP9nLx2R';
const lib = mcpLibrary(KEY, 'mcp-resume');

const BATCH = 8;

describe('resume under a connection spending limit', () => {
  it('sends a never-sent task only as far as the limit pays for it', async () => {
    await lib.price('0.04');
    const demo = await lib.demo({ durationMs: 200 });
    // The first server's submits hang: the batch's tail is stored, queued, never sent.
    demo.addFault({ route: 'submit', effect: { type: 'delay', ms: 600_000 } });
    const first = await lib.serve(onService(demo.url));
    void first.call('generate', { prompt: 'a long batch', count: BATCH });
    await vi.waitFor(() => expect(demo.log.submits.length).toBeGreaterThan(0), {
      timeout: 30_000,
    });
    process.kill(first.pid, 'SIGKILL');
    const sentFirst = demo.log.submits.length;
    expect(sentFirst, 'the batch left a tail never sent').toBeLessThan(BATCH - 1);
    demo.clearFaults();

    // A connection that may spend US$0.05: one task at US$0.04.
    const second = await lib.serve(onService(demo.url, ['--max-spend', '0.05']));
    const { tasks } = answerOf<{ tasks: { localId: string }[] }>(
      await second.call('list_tasks', { limit: 50 }),
    );
    expect(tasks).toHaveLength(BATCH);
    for (const task of tasks) {
      await second.call('resume', { task: task.localId, wait: true, waitSeconds: 60 });
    }
    expect(
      demo.log.submits.length - sentFirst,
      'never-sent tasks a US$0.05 connection sent at US$0.04 each',
    ).toBe(1);
  }, 180_000);

  it("resumes the connection's own batch tail without counting it twice", async () => {
    await lib.price('0.04');
    const demo = await lib.demo({ durationMs: 200 });
    demo.addFault({ route: 'submit', effect: { type: 'delay', ms: 600_000 } });
    // US$0.33: the batch's eight tasks (US$0.32), not one more.
    const mcp = await lib.serve(onService(demo.url, ['--max-spend', '0.33']));
    void mcp.call('generate', { prompt: 'a long batch', count: BATCH });
    await vi.waitFor(() => expect(demo.log.submits.length).toBeGreaterThan(0), {
      timeout: 30_000,
    });
    const { tasks } = answerOf<{ tasks: { localId: string }[] }>(
      await mcp.call('list_tasks', { limit: 50 }),
    );
    expect(tasks).toHaveLength(BATCH);
    for (const task of tasks) answerOf(await mcp.call('resume', { task: task.localId }));
  }, 180_000);
});
