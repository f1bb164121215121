/**
 * `pictor mcp`'s requestKey: a client that timed out on `generate` cancels the call and may send
 * it again under a new id, a call the server cannot tell from a new one; given the same key, the
 * retry gets the first call's tasks and nothing more is sent. A key whose submit sent nothing is
 * free again; the same key with other arguments, or a key that is no short string, is refused,
 * nothing sent. The server is the bundled CLI as a child process, driven by the SDK's client over
 * stdio, on the seed's own interface on loopback (its submits counted there) and the built-in demo.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { REPEATED_SUBMIT } from '../../../electron/cli/mcp/mcp-request-keys';
import { UNTIL } from '../../support/waits';
import { answerOf, mcpLibrary, refusalOf, onService } from './mcp-harness';

const KEY = 'sk-mcp-Rk7vQ2nW9tLp4XcB8mYs3HdJ';

interface Answer {
  readonly tasks: { localId: string; taskId: string | null; prompt?: string }[];
  readonly notes?: string[];
  readonly group?: string;
  readonly spending: { tasksSent: number };
}

const lib = mcpLibrary(KEY, 'mcp-request-key');

describe('pictor mcp: a requestKey', () => {
  it('a retry under a new id after the client cancelled gets the first call’s task; one sent', async () => {
    const demo = await lib.demo({ durationMs: 100 });
    // The submit is answered late: the client gives up on the call while it is on its way.
    demo.addFault({ route: 'submit', effect: { type: 'delay', ms: 2_000 }, times: 1 });
    const mcp = await lib.serve(onService(demo.url));
    const kite = { prompt: 'a kite', requestKey: randomUUID() };
    const timeout = new AbortController();
    const first = mcp.client
      .callTool({ name: 'generate', arguments: kite }, undefined, { signal: timeout.signal })
      .catch(() => 'cancelled');
    await vi.waitFor(() => expect(demo.log.submits).toHaveLength(1), UNTIL);
    timeout.abort('timed out');
    expect(await first).toBe('cancelled');
    // The retry, as the agent sends it: the same arguments, waiting for the tasks this time.
    const again = answerOf<Answer>(await mcp.call('generate', { ...kite, wait: true }));
    expect(demo.log.submits, 'submits the service received').toHaveLength(1);
    expect(again.tasks.map((task) => task.taskId)).toEqual(demo.tasks().map((task) => task.id));
    expect(again.notes).toContain(REPEATED_SUBMIT);
    expect(again.spending.tasksSent).toBe(1);
    const listed = answerOf<Answer>(await mcp.call('list_tasks', {}));
    expect(listed.tasks.map((task) => task.localId)).toEqual(again.tasks.map((t) => t.localId));
    // Another key is another submit.
    const another = answerOf<Answer>(
      await mcp.call('generate', { prompt: 'a kite', requestKey: randomUUID() }),
    );
    expect(another.notes ?? []).not.toContain(REPEATED_SUBMIT);
    expect(demo.log.submits).toHaveLength(2);
  }, 120_000);

  it('refuses the same key with other arguments, and frees a key whose submit sent nothing', async () => {
    const demo = await lib.demo({ durationMs: 100 });
    const mcp = await lib.serve(onService(demo.url, ['--max-tasks', '2']));
    const requestKey = randomUUID();
    answerOf(await mcp.call('generate', { prompt: 'a kite', requestKey }));
    const other = refusalOf(await mcp.call('generate', { prompt: 'a boat', requestKey }));
    expect(other).toContain('given to an earlier call with other arguments, so nothing was sent');
    expect(demo.log.submits).toHaveLength(1);
    // Refused by the task limit (2 more past 1 sent): the key is free for the next submit.
    const refusedKey = randomUUID();
    const over = refusalOf(
      await mcp.call('generate', { prompt: 'two', count: 2, requestKey: refusedKey }),
    );
    expect(over).toContain("this connection's task limit");
    const sent = answerOf<Answer>(
      await mcp.call('generate', { prompt: 'one', requestKey: refusedKey }),
    );
    expect(sent.notes ?? []).not.toContain(REPEATED_SUBMIT);
    expect(demo.log.submits).toHaveLength(2);
  }, 120_000);

  it('refuses a key that is no string of 1 to 200 characters, sending nothing', async () => {
    const demo = await lib.demo({ durationMs: 100 });
    const mcp = await lib.serve(onService(demo.url));
    for (const requestKey of [7, '', 'k'.repeat(201), { a: 1 }, ['k'], null, true]) {
      const said = refusalOf(await mcp.call('generate', { prompt: 'a kite', requestKey }));
      expect(said, JSON.stringify(requestKey)).toMatch(/requestKey/);
    }
    // A key holding the API key is refused as any field holding it is.
    const carried = refusalOf(await mcp.call('generate', { prompt: 'x', requestKey: KEY }));
    expect(carried).toContain('holds the value of an API key');
    expect(demo.log.submits).toHaveLength(0);
  }, 120_000);

  it('compare: a repeat gets the first call’s group and tasks; nothing more sent', async () => {
    const mcp = await lib.serve(['--provider', 'demo', '--poll-interval', '0.1'], {
      env: { PICTOR_DEMO_DURATION_MS: '100' },
    });
    const call = {
      prompt: 'a tidal pool',
      targets: [{ service: 'demo' }, { service: 'demo:fal' }],
      requestKey: randomUUID(),
    };
    const first = answerOf<Answer>(await mcp.call('compare', call));
    const again = answerOf<Answer>(await mcp.call('compare', call));
    expect(again.group).toBe(first.group);
    expect(again.tasks.map((task) => task.localId)).toEqual(first.tasks.map((t) => t.localId));
    expect(again.notes).toContain(REPEATED_SUBMIT);
    expect(again.spending.tasksSent, 'tasks the connection sent').toBe(2);
    const listed = answerOf<Answer>(await mcp.call('list_tasks', {}));
    expect(listed.tasks).toHaveLength(2);
  }, 120_000);
});
