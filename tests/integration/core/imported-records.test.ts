/**
 * Records imported from a gallery folder (`rebuild`) that name a service on this computer — the
 * built-in demo (`demo:`) or a loopback address — are never contacted: no poll, no image
 * download. A crafted sidecar cannot aim Pictor at local services. The control record, the same
 * but made by the app itself, is contacted: the test can fail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRuntime } from '../../support/app-runtime';
import type { AppRuntime } from '../../../electron/app/app-runtime';
import { importedLocalMessage } from '../../../electron/core/credentials/record-credentials';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A local server that counts what reaches it (a service or image host a sidecar names). */
async function localServer(): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

async function runtime(): Promise<AppRuntime> {
  const dir = await tempFolder('imported');
  cleanups.push(() => removeFolder(dir));
  const started = await startTestRuntime(dir);
  cleanups.push(() => started.close());
  return started;
}

function record(fields: Partial<TaskRecord> & Pick<TaskRecord, 'endpoint'>): TaskRecord {
  const base = newTaskRecord(
    {
      localId: `local-${Math.random().toString(16).slice(2)}`,
      taskId: 'task-from-a-sidecar',
      origin: 'submitted',
      endpoint: fields.endpoint,
      account: 'a1b2c3d4e5f6',
      request: { prompt: 'from a folder' },
    },
    Date.now(),
  );
  return { ...base, status: 'processing', watchStartedAt: Date.now(), ...fields };
}

function withPendingImage(endpoint: string, url: string, imported: boolean): TaskRecord {
  return record({
    endpoint,
    imported,
    status: 'completed',
    finishedAt: Date.now(),
    images: [{ index: 0, url, state: 'pending', attempts: 0, favourite: false }],
  });
}

describe('records imported from a gallery folder', () => {
  it('never poll the demo service or a loopback service they name', async () => {
    const app = await runtime();
    const local = await localServer();
    const onDemo = record({ endpoint: 'demo:', imported: true });
    const onLoopback = record({ endpoint: local.url, imported: true });
    app.core.history.putMany([onDemo, onLoopback]);
    app.core.engine.start({ resume: true });
    for (const { localId } of [onDemo, onLoopback]) {
      await expect
        .poll(() => app.core.engine.get(localId)?.error?.message, UNTIL)
        .toBe(importedLocalMessage());
      expect(app.core.engine.get(localId)).toMatchObject({
        status: 'processing',
        hold: 'awaiting_key',
      });
    }
    expect(app.demo.log.polls).toEqual([]);
    expect(local.hits).toEqual([]);
  });

  it('never download their images from this computer; the app’s own record does', async () => {
    const app = await runtime();
    const local = await localServer();
    const imported = withPendingImage('demo:', `${local.url}/imported.png`, true);
    const own = withPendingImage('demo:', `${local.url}/own.png`, false);
    app.core.history.putMany([imported, own]);
    app.core.engine.start({ resume: true });
    await expect
      .poll(() => app.core.engine.get(imported.localId)?.images[0]?.state, UNTIL)
      .toBe('invalid');
    expect(app.core.engine.get(imported.localId)?.images[0]?.error).toBe(importedLocalMessage());
    // The control: the app's own record of the same shape reaches the local image host.
    await expect.poll(() => local.hits, UNTIL).toContain('/own.png');
    expect(local.hits).not.toContain('/imported.png');
  });
});
