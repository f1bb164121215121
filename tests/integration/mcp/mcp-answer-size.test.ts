/**
 * Every answer of `pictor mcp` fits the client's read buffer (the SDK's stdio framing reads one
 * line of at most 10 MB; a longer one is dropped and the call never answered). A page of
 * list_images (100 images) or list_tasks (50 tasks) carries each task's prompt, up to 32,000
 * characters, written twice as JSON (the answer's text, then the message): a library whose
 * prompts are quotes, backslashes or controls (another hand's records: an imported archive) made
 * a page of 11 to 22 MB. A page now holds as many items as fit, its cursor at the first left
 * out, so walking the pages still lists every item. generate's answer (up to 100 tasks, each with
 * its prompt) leaves the prompts out when they would not fit: the ids of tasks already sent reach
 * the agent. The real server and core in-process (an
 * offline library), the SDK's own client over its in-memory transport, each answer measured by
 * the SDK's own framing (ReadBuffer, as the client reads stdout).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../../electron/cli/mcp/mcp-server';
import { DEMO_ENDPOINT } from '../../../shared/domain/submit-target';
import { REQUEST_LIMITS } from '../../../shared/domain/limits';
import { StaticCredentials } from '../../fakes/static-credentials';
import { offlineCore } from '../../support/offline-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';

const KEY = 'sk-answer-size-Vb7Nq2Wx5Lz8';
import { makeImage, makeRecord } from '../../unit/core/history/history-fixtures';

/**
 * Prompts JSON writes longest: a control is `\u0001` in the answer's text, `\\u0001` in the
 * message, 7 bytes a character. 50 of them filled one page of either tool past 10 MB.
 */
const PROMPTS = Array.from(
  { length: 50 },
  (_, n) => `${String(n)} ${'\u0001'.repeat(REQUEST_LIMITS.prompt - 4)}`,
);

/** On the offline core's library alone, or sending to `service` (the demo on loopback). */
async function serverOn(prompts: readonly string[], service?: DemoService) {
  const target = { provider: 'pictor' as const, endpoint: service?.url ?? DEMO_ENDPOINT };
  const credentials = new StaticCredentials(target.endpoint, service ? KEY : null);
  const core = await offlineCore(service ? { credentials, fetch: globalThis.fetch } : {});
  core.history.putMany(
    prompts.map((prompt, n) =>
      makeRecord({
        localId: `task-${String(n).padStart(3, '0')}`,
        createdAt: 1_700_000_000_000 + n,
        status: 'completed',
        request: { prompt },
        images: [makeImage(0)],
      }),
    ),
  );
  const server = createMcpServer({
    core,
    credentials,
    target,
    limits: { maxSpendMicros: null, maxTasks: 200 },
    keys: [],
    version: 'test',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'answer-size', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

/** The answer as the client reads it from stdout: its line through the SDK's ReadBuffer. */
function framed(id: number, result: CallToolResult): unknown {
  const buffer = new ReadBuffer();
  buffer.append(Buffer.from(serializeMessage({ jsonrpc: '2.0', id, result })));
  return buffer.readMessage();
}

interface Page {
  readonly images?: { prompt: string }[];
  readonly tasks?: { prompt: string }[];
  readonly nextCursor: string | null;
}

describe('an answer of pictor mcp', () => {
  it('fits the client’s buffer, and its pages list every item', async () => {
    const { client, close } = await serverOn(PROMPTS);
    try {
      for (const [tool, limit] of [
        ['list_images', 100],
        ['list_tasks', 50],
      ] as const) {
        const seen: string[] = [];
        let cursor: string | null = null;
        for (let call = 0; call < PROMPTS.length; call += 1) {
          const args = { limit, ...(cursor === null ? {} : { cursor }) };
          const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
          expect(result.isError, tool).not.toBe(true);
          expect(() => framed(call, result), `${tool}'s page ${String(call)}`).not.toThrow();
          const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
          const page = JSON.parse(text) as Page;
          const items = page.images ?? page.tasks ?? [];
          expect(items.length, `${tool}'s page ${String(call)} is empty`).toBeGreaterThan(0);
          seen.push(...items.map((item) => item.prompt));
          cursor = page.nextCursor;
          if (cursor === null) break;
        }
        expect(seen.sort(), tool).toEqual([...PROMPTS].sort());
      }
    } finally {
      await close();
    }
  }, 120_000);

  it('of generate gives every task’s id, its prompts left out when they would not fit', async () => {
    const demo = await startDemoService({
      durationMs: 60_000,
      accounts: [{ account: 'a', key: KEY }],
    });
    const { client, close } = await serverOn([], demo);
    try {
      const prompt = PROMPTS[0] ?? '';
      const result = (await client.callTool({
        name: 'generate',
        arguments: { prompt, count: 50 },
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content).slice(0, 300)).not.toBe(true);
      expect(() => framed(1, result)).not.toThrow();
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      const said = JSON.parse(text) as { tasks: { localId: string }[]; notes: string[] };
      expect(new Set(said.tasks.map((task) => task.localId)).size).toBe(50);
      expect(said.notes.join(' ')).toContain('task_status gives each');
    } finally {
      await close();
      await demo.close();
    }
  }, 120_000);
});
