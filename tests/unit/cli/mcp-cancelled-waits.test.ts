/**
 * The waits of `pictor mcp`'s generate, compare and resume (mcp-tool-kit.ts) for a call the agent
 * cancelled before the wait began (while its submit was on its way): an AbortSignal says `abort`
 * once, so a wait that only listened for it waited on, up to 30 s for the ids and up to 10
 * minutes for the tasks, for an answer the SDK never sends, keeping the server's process alive
 * after its client closed. A real offline core submitting over real HTTP to a loopback server
 * that never answers, so the task's submit stays out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { waitForIds, waitForTasks, type ToolExtra } from '../../../electron/cli/mcp/mcp-tool-kit';
import { StaticCredentials } from '../../fakes/static-credentials';
import { offlineCore } from '../../support/offline-core';

/** Whether `waiting` ended before the event loop's next turn: no timer or event ended it. */
function endedAtOnce(waiting: Promise<unknown>): Promise<boolean> {
  const nextTurn = new Promise<boolean>((resolve) => setImmediate(() => resolve(false)));
  return Promise.race([waiting.then(() => true), nextTurn]);
}

/** A tool call's extra whose call was cancelled already. */
function cancelledCall(): ToolExtra {
  const call = new AbortController();
  call.abort();
  return { signal: call.signal, sendNotification: () => Promise.resolve() };
}

/** A server on loopback that reads every request and answers none; closed when the test ends. */
async function silentService(): Promise<string> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  onTestFinished(
    () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  );
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

/** An offline core and the ids of a task it stored, its submit still out. */
async function unsentTask() {
  const url = await silentService();
  const key = 'sk-offline-waits-7Qm2';
  // Node's own fetch, where an offline core's refuses every request.
  const credentials = new StaticCredentials(url, key);
  const core = await offlineCore({ key, credentials, fetch: globalThis.fetch });
  const records = await core.engine.submit(
    { prompt: 'a kite' },
    { provider: 'pictor', endpoint: url },
  );
  const ids = records.map((record) => record.localId);
  expect(core.engine.get(ids[0]!)?.status).toBe('submitting');
  return { core, ids };
}

describe('a wait of a call cancelled before it began', () => {
  it("for the service's ids ends at once", async () => {
    const { core, ids } = await unsentTask();
    expect(await endedAtOnce(waitForIds(core, ids, cancelledCall()))).toBe(true);
  });

  it('for the tasks to end ends at once', async () => {
    const { core, ids } = await unsentTask();
    expect(await endedAtOnce(waitForTasks(core, ids, 600, cancelledCall()))).toBe(true);
    expect(core.engine.get(ids[0]!)?.status, 'the task, still out').toBe('submitting');
  });
});
