/**
 * Every submit that failed before its first byte was written is "not sent" (submit_failed, costs
 * nothing, a sentence naming the cause and no library words), and one that failed after is
 * "may have reached the service" (submit_unknown): the real core on loopback, through Node's own
 * fetch (no word from the transport: the app's Chromium is read the same way, by its codes) and
 * through the CLI's fetch (which says whether the request was written).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import type { FetchLike } from '../../../electron/ports/http';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { StaticCredentials } from '../../fakes/static-credentials';
import { closedPort } from '../../support/http-servers';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import {
  dropAfterRequestServer,
  plainServer,
  selfSignedServer,
  type LoopbackPlace,
} from '../../support/unsent-servers';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function place(started: Promise<LoopbackPlace>): Promise<LoopbackPlace> {
  const server = await started;
  cleanups.push(() => server.close());
  return server;
}

/** A fresh core and library whose key is for `baseUrl`. */
async function coreFor(baseUrl: string, fetch: FetchLike) {
  const dir = await tempFolder('not-sent');
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch,
    credentials: new StaticCredentials(baseUrl, 'sk-not-sent-4f1e'),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 200, maxBackoffMs: 1_000 },
    ...bundledCoreWorkers(),
  });
  cleanups.push(async () => {
    await core.close().catch(() => undefined);
    await removeFolder(dir);
  });
  core.engine.start();
  return core;
}

/** Submits one task to `baseUrl`; its record once settled. */
async function submitTo(baseUrl: string, fetch: FetchLike): Promise<TaskRecord> {
  const core = await coreFor(baseUrl, fetch);
  const [record] = await core.engine.submit({ prompt: 'a kite' }, targetAt(baseUrl));
  const [done] = await core.engine.whenSettled([record!.localId]);
  return done!;
}

/** Library words that must never stand in for a sentence. */
const RAW = /fetch failed|bad port|Error:|<-|getaddrinfo|ECONN|ENOTFOUND|ERR_/;

function expectNotSent(record: TaskRecord, key: string): void {
  expect(record.status).toBe('submit_failed');
  expect(record.error?.sentence?.key).toBe(key);
  expect(record.error?.message).toMatch(/nothing was sent|Nothing was sent|Fix it in Settings/);
  expect(record.error?.message).not.toMatch(RAW);
  expect(record.taskId).toBeNull();
  // Never sent, never billed: the cost book counts nothing for it, and no unknown cost.
  expect(record.cost).toEqual({ source: 'not_billed' });
}

const TRANSPORTS: [string, () => FetchLike][] = [
  ['Node’s fetch (read by its codes)', () => (url, init) => fetch(url, init)],
  ['the CLI’s fetch (says whether it wrote)', () => createNodeFetch({})],
];

describe.each(TRANSPORTS)('through %s', (_name, makeFetch) => {
  it.each([9, 6000, 6665, 10080])('a bad port (%i): not sent, the port named', async (port) => {
    const record = await submitTo(`http://127.0.0.1:${port}`, makeFetch());
    expectNotSent(record, 'error.service.blockedPort');
    expect(record.error?.sentence?.params).toEqual({ host: '127.0.0.1', port: String(port) });
  });

  it('a refused connection: not sent', async () => {
    const port = await closedPort();
    const record = await submitTo(`http://127.0.0.1:${port}`, makeFetch());
    expectNotSent(record, 'error.service.refusedSubmit');
    expect(record.error?.message).toContain(`127.0.0.1:${port}`);
  });

  it('a name that does not resolve: not sent', async () => {
    const record = await submitTo('https://api.pictor-test.invalid', makeFetch());
    expectNotSent(record, 'error.service.noSuchHostSubmit');
    expect(record.error?.message).toContain('api.pictor-test.invalid');
  });

  it('a certificate nobody trusts: not sent, nothing reached the server', async () => {
    const server = await place(selfSignedServer());
    const record = await submitTo(server.origin, makeFetch());
    expectNotSent(record, 'error.service.insecureSubmit');
    expect(server.received).toEqual([]);
  });

  it('a TLS handshake that fails (https to a plain-http port): not sent', async () => {
    const server = await place(plainServer());
    const record = await submitTo(`https://127.0.0.1:${server.port}`, makeFetch());
    expectNotSent(record, 'error.service.handshakeSubmit');
    expect(server.received).toEqual([]);
  });

  it('a service URL the policy refuses: refused before a task is stored, nothing sent', async () => {
    const core = await coreFor('http://api.example.com', makeFetch());
    await expect(
      core.engine.submit({ prompt: 'a kite' }, targetAt('http://api.example.com')),
    ).rejects.toThrow(/^The service URL must start with https:\/\//);
    expect(core.history.count()).toBe(0);
  });

  it('a connection dropped after the request was read: may have reached the service', async () => {
    const server = await place(dropAfterRequestServer());
    const record = await submitTo(server.origin, makeFetch());
    expect(record.status).toBe('submit_unknown');
    expect(record.error?.sentence?.key).toBe('error.library.submitMayHaveReached');
    expect(server.received).toEqual(['POST /v1/images/generations']);
  });
});
