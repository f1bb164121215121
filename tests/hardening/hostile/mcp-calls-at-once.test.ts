/**
 * `pictor mcp` under an agent that sends its calls side by side (the SDK runs their handlers at
 * once): each generate starts the engine again while the others' submits are out, and none of
 * those may be taken for a submit whose process ended (marked "closed before the service
 * answered", never polled: a task the service made and billed, its image never fetched). The
 * real CLI over stdio, on the demo service on loopback.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerOf, mcpLibrary } from '../../integration/mcp/mcp-harness';
import { QUICK_POLL } from '../../support/quick-demo';

const KEY = 'sk-mcp-at-once-Lq3vX8nR5tWz1P';
const lib = mcpLibrary(KEY, 'mcp-at-once');
const AT_ONCE = 8;

interface Facts {
  readonly tasks: { localId: string; taskId: string | null; status: string }[];
}

function generate(mcp: Awaited<ReturnType<typeof lib.serve>>, prompt: string) {
  return mcp.client.callTool({ name: 'generate', arguments: { prompt, wait: true } }, undefined, {
    timeout: 60_000,
  }) as Promise<CallToolResult>;
}

describe('generate calls sent at once', () => {
  it('every task keeps the id its service gave and ends completed', async () => {
    const demo = await lib.demo({ durationMs: 300 });
    // The first submit is answered late: the next calls start the engine while it is out.
    demo.addFault({ route: 'submit', effect: { type: 'delay', ms: 1_500 }, times: 1 });
    // Its tasks (300 ms each) looked at every 0.1 s, not every 3 s (QUICK_POLL): the window
    // judged is the first submit's, held out by the fault, not a poll's.
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...QUICK_POLL]);
    const first = generate(mcp, 'kite 0');
    await vi.waitFor(() => expect(demo.log.submits).toHaveLength(1), { timeout: 30_000 });
    const more = Array.from({ length: AT_ONCE - 1 }, (_, n) =>
      generate(mcp, `kite ${String(n + 1)}`),
    );
    const tasks = (await Promise.all([first, ...more])).flatMap(
      (answered) => answerOf<Facts>(answered).tasks,
    );
    expect(demo.tasks()).toHaveLength(AT_ONCE);
    expect(tasks.map((task) => task.status)).toEqual(Array(AT_ONCE).fill('completed'));
    expect(new Set(tasks.map((task) => task.taskId))).toEqual(
      new Set(demo.tasks().map((task) => task.id)),
    );
  }, 120_000);
});
