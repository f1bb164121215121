/**
 * Submits that carry their input images inline, to a service that reads every byte and never
 * answers. Such a body was built whole in main and held until the answer (the client kept its text
 * for a redirect, Node's fetch kept a whole copy: 4 submits of a 16 MiB image held +85 MB of heap
 * and +86 MB of buffers after a GC), so a task held one of the two turns until its service answered
 * and one service's batch of edits went one at a time. The body is now streamed from the store's
 * file (core/inputs/inline-body.ts) and the turn ends when its last byte is handed off.
 *
 * Through the real InputSender, ServiceClient and BFL profile (its inline base64), with the CLI's
 * fetch (undici's `request`, the body framed by its Content-Length) and main's (the app's adapter
 * over `net.request` with chunkedEncoding, its network played by node:http), against a loopback
 * server that hashes what it receives and answers only when the test ends. A file changed on disk
 * once its send began is never sent whole, and the refusal says so.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { InputStore } from '../../../electron/core/inputs/input-store';
import { InputSender } from '../../../electron/core/inputs/send-inputs';
import { UploadMemory } from '../../../electron/core/inputs/upload-memory';
import { profileOf, ServiceClient, ServiceError } from '../../../electron/core/service';
import type { FetchLike } from '../../../electron/ports/http';
import type { InputImage } from '../../../shared/domain/image-inputs';
import type { GenerationRequest } from '../../../shared/service/wire';
import { createMainFetch } from '../../support/node-http-net';
import { UNTIL } from '../../support/waits';
import { paddedPng } from './padded-png';
import { removeFolder, tempFolder } from '../../support/temp-folders';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = 'bfl-key-0123456789abcdef';
const MIB = 1024 * 1024;
const INPUT_BYTES = 16 * MIB;
/** One service's batch: as many edits as the submit slots send to one address at once. */
const EDITS = 4;
/** What main may hold, after a GC, while every body waits for its answer: less than one input. */
const MOST_HELD = INPUT_BYTES;

const TRANSPORTS: readonly [string, () => FetchLike][] = [
  ['the CLI’s fetch', () => createNodeFetch({})],
  ['main’s fetch', () => createMainFetch()],
];

/** A body as the server got it: its bytes' digest and count, whether it arrived to its end. */
interface Received {
  readonly sha256: string;
  readonly bytes: number;
  readonly whole: boolean;
  readonly headers: IncomingMessage['headers'];
}

/** How the service answers a body it read whole at `path`; nothing: it never answers. */
type Answering = (path: string, url: string) => { status: number; headers: object; body: string };

/**
 * A service that reads every byte it is sent, then answers as `answering` says, or nothing until
 * it closes.
 */
async function silentService(answering?: Answering) {
  const received: Received[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const hash = createHash('sha256');
    let bytes = 0;
    request.on('data', (piece: Buffer) => {
      hash.update(piece);
      bytes += piece.length;
    });
    request.on('end', () => {
      received.push({ sha256: hash.digest('hex'), bytes, whole: true, headers: request.headers });
      const answer = answering?.(request.url ?? '', url);
      if (!answer) open.add(response);
      else response.writeHead(answer.status, { ...answer.headers }).end(answer.body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url: string = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  });
  return { url, received };
}

async function setUp(fetch: FetchLike, answering?: Answering) {
  const folder = await tempFolder('streamed-inputs');
  cleanups.push(() => removeFolder(folder));
  const root = join(folder, 'gallery');
  await mkdir(root);
  const store = new InputStore({ root });
  const sender = new InputSender({
    store,
    fetch,
    settings: () => ({ neverUploadInputs: false, publicUploadConsent: [] }),
    memory: new UploadMemory(folder, Date.now),
    now: Date.now,
  });
  const client = new ServiceClient({ fetch, requestTimeoutMs: 600_000 });
  const stopped = new AbortController();
  cleanups.push(async () => stopped.abort(new Error('The test ended.')));
  const service = await silentService(answering);
  const credentials = {
    baseUrl: service.url,
    key: KEY,
    keyFingerprint: 'f',
    provider: 'bfl' as const,
  };
  /** Sends an edit of `source` as the engine does: its inputs made ready, then the submit. */
  const edit = (source: InputImage, beforeSubmit?: () => Promise<void>) => {
    const request: GenerationRequest = {
      prompt: 'make it warmer',
      model: 'flux-kontext-pro',
      inputs: { operation: 'edit', source },
    };
    const task = { provider: 'bfl' as const, request, credentials, signal: stopped.signal };
    return sender.send(task, async (sent) => {
      await beforeSubmit?.();
      return client.submit(credentials, request, stopped.signal, sent);
    });
  };
  /** The body the service must get for `bytes`: built whole, as it was before bodies streamed. */
  const wholeBody = (source: InputImage, bytes: Buffer) => {
    const request = {
      prompt: 'make it warmer',
      model: 'flux-kontext-pro',
      inputs: { operation: 'edit', source },
    } as const;
    const asked = profileOf('bfl').submit(request, {
      source: bytes.toString('base64'),
      references: [],
    });
    const text = Buffer.from(JSON.stringify(asked.body));
    return { sha256: createHash('sha256').update(text).digest('hex'), bytes: text.length };
  };
  return { store, root, service, edit, wholeBody };
}

const held = () => {
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

describe.each(TRANSPORTS)('inline inputs streamed from their files (%s)', (_name, transport) => {
  it(`a batch of ${EDITS} edits of ${INPUT_BYTES / MIB} MiB to one service that never answers: every body arrives whole at once, main holds less than one input`, async () => {
    const { store, service, edit, wholeBody } = await setUp(transport());
    const inputs: { image: InputImage; expected: { sha256: string; bytes: number } }[] = [];
    for (let index = 0; index < EDITS; index += 1) {
      const bytes = await paddedPng(64, 40 + index, INPUT_BYTES, index + 1);
      const image = await store.put(bytes);
      inputs.push({ image, expected: wholeBody(image, bytes) });
    }
    const before = held();
    const sends = inputs.map(({ image }) => edit(image).catch((error: unknown) => error));
    // Not one at a time: every body is sent while none is answered.
    await vi.waitFor(() => expect(service.received).toHaveLength(EDITS), UNTIL);
    const growth = held() - before;
    expect(growth, 'bytes main holds while the bodies wait for their answers').toBeLessThan(
      MOST_HELD,
    );
    const got = service.received.map(({ sha256, bytes }) => ({ sha256, bytes }));
    expect(new Set(got.map((one) => one.sha256))).toEqual(
      new Set(inputs.map((one) => one.expected.sha256)),
    );
    for (const one of service.received) {
      if (transport === TRANSPORTS[0]?.[1]) {
        expect(Number(one.headers['content-length'])).toBe(one.bytes);
      } else {
        expect(one.headers['transfer-encoding']).toBe('chunked');
      }
    }
    void sends;
  });

  it('a 307 to another path under the base URL: the body is read again from the file and sent whole there', async () => {
    const moved: Answering = (path, url) =>
      path.startsWith('/v1/')
        ? { status: 307, headers: { location: path.replace('/v1/', '/v2/') }, body: '' }
        : {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id: 'task-1', polling_url: `${url}/v1/get_result?id=task-1` }),
          };
    const { store, service, edit, wholeBody } = await setUp(transport(), moved);
    const bytes = await paddedPng(64, 90, 2 * MIB, 5);
    const image = await store.put(bytes);
    const answer = await edit(image);
    expect(answer.id).toBe('task-1');
    const expected = wholeBody(image, bytes);
    expect(service.received.map(({ sha256, bytes }) => ({ sha256, bytes }))).toEqual([
      expected,
      expected,
    ]);
  });

  it('an input changed on disk after its check is never sent whole: the submit is refused, nothing reached the service', async () => {
    const { store, root, service, edit } = await setUp(transport());
    const bytes = await paddedPng(64, 90, 2 * MIB, 3);
    const image = await store.put(bytes);
    const path = join(root, ...store.relativePath(image).split('/'));
    const changed = Buffer.from(bytes);
    changed[changed.length - 100] = (changed[changed.length - 100] ?? 0) ^ 0xff;
    const failure = await edit(image, () => writeFile(path, changed)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ServiceError);
    const refused = failure as ServiceError;
    expect(refused.kind).toBe('config');
    expect(refused.mayHaveReachedService).toBe(false);
    expect(refused.message).toMatch(/changed/i);
    expect(service.received, 'bodies that arrived whole').toEqual([]);
  });
});
