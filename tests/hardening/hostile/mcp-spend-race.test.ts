/**
 * `pictor mcp --max-spend`: the limit of one connection holds however an agent sends its calls.
 * An MCP client may send many requests without waiting for their answers, and the SDK runs their
 * handlers side by side: a submit between another's check and its count must not pass on what the
 * other has not counted yet. Every tool that spends (generate, generate with a template, compare)
 * is fired many times at once, on the demo service on loopback; what the service was sent is
 * what is judged.
 */
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpLibrary } from '../../integration/mcp/mcp-harness';

const KEY = 'sk-mcp-race-Vt6pW2qN8xRz4LmK';
const lib = mcpLibrary(KEY, 'mcp-race');

/** Each task costs US$0.04; the connection may spend US$0.10: two tasks at most. */
const LIMIT = ['--max-spend', '0.10'];
const AT_ONCE = 8;

/** `AT_ONCE` calls of `name` with `args`, all sent before any is answered. */
async function fired(
  mcp: Awaited<ReturnType<typeof lib.serve>>,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult[]> {
  const calls = Array.from({ length: AT_ONCE }, () =>
    mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }),
  );
  return (await Promise.all(calls)) as CallToolResult[];
}

function refused(answers: readonly CallToolResult[]): number {
  return answers.filter((answered) => answered.isError === true).length;
}

describe("a connection's spending limit under calls sent at once", () => {
  it('generate: never more tasks sent than the limit pays for', async () => {
    await lib.price('0.04');
    const demo = await lib.demo({ durationMs: 60_000 });
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...LIMIT]);
    const answers = await fired(mcp, 'generate', { prompt: 'a red kite' });
    expect(demo.tasks().length, 'tasks sent past a US$0.10 limit at US$0.04 each').toBe(2);
    expect(refused(answers)).toBe(AT_ONCE - 2);
  }, 120_000);

  it('generate with a template: never more tasks sent than the limit pays for', async () => {
    await lib.price('0.04');
    await lib.pictor(['template', 'add', 'Scene', '--body', 'a {{subject}} at dawn']);
    const demo = await lib.demo({ durationMs: 60_000 });
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...LIMIT]);
    const answers = await fired(mcp, 'generate', {
      template: { name: 'scene', values: { subject: 'fox' } },
    });
    expect(demo.tasks().length, 'tasks sent past a US$0.10 limit at US$0.04 each').toBe(2);
    expect(refused(answers)).toBe(AT_ONCE - 2);
  }, 120_000);

  it('compare: never more tasks sent than the limit pays for', async () => {
    await lib.price('0.04');
    const demo = await lib.demo({ durationMs: 60_000 });
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...LIMIT]);
    // Two tasks a compare, US$0.08: one compare fits the limit, not two.
    const answers = await fired(mcp, 'compare', {
      prompt: 'a tidal pool',
      targets: [{ service: 'pictor' }, { service: 'pictor', model: 'second' }],
    });
    expect(demo.tasks().length, 'tasks sent past a US$0.10 limit at US$0.04 each').toBe(2);
    expect(refused(answers)).toBe(AT_ONCE - 1);
  }, 120_000);

  it('a submit the engine refuses gives its share of the limit back', async () => {
    await lib.price('0.04');
    const demo = await lib.demo({ durationMs: 60_000 });
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...LIMIT]);
    // A hard cap of the library's refuses the first submit in the engine: nothing was spent.
    await lib.pictor(['caps', 'set', '--period', 'day', '--amount', '0.01', '--unit', 'USD']);
    const capped = await mcp.call('generate', { prompt: 'over the cap' });
    expect(capped instanceof Error ? capped.message : capped.isError).toBe(true);
    await lib.pictor(['caps', 'clear', '--period', 'day', '--unit', 'USD']);
    // Calls at once under the limit again: the refused submit's share was given back.
    await fired(mcp, 'generate', { prompt: 'a red kite' });
    expect(demo.tasks().length, 'the refused submit counted nothing').toBe(2);
  }, 120_000);
});
