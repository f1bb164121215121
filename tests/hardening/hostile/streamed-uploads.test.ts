/**
 * Uploads of input images streamed from the input store's file (core/inputs/upload-body.ts),
 * attacked: a target that takes the body slowly while many uploads wait, a file changed, cut
 * short, deleted or replaced on disk while it is sent, an upload stopped mid-body, a target that
 * closes early, and one that answers with a redirect to another origin.
 *
 * Built whole, an upload held its image three times over for as long as its request took (the
 * bytes read back, the Blob or FormData made of them, the pinned transport's encoded copy). Each
 * service's real uploader runs here: fal's signed PUT and DashScope's form over the pinned
 * connection, Replicate's keyed multipart form over the CLI's fetch (undici's `request`, framed by
 * its Content-Length) and main's (the app's adapter over `net.request`, chunked; its network
 * played by node:http), against a loopback service and storage that hash what they receive. And a
 * submit whose inline images stream from their files, redirected to another origin: never sent
 * there.
 */
import { createHash } from 'node:crypto';
import { readdir, readlink, rename, truncate, unlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { createPinnedFetch } from '../../../electron/core/download/pinned-fetch';
import { InputStore, InputStoreError } from '../../../electron/core/inputs/input-store';
import { InlineImages } from '../../../electron/core/inputs/inline-body';
import type { InlineTransport } from '../../../electron/core/inputs/input-route';
import type { ImageSource } from '../../../electron/core/inputs/upload-body';
import type { UploadCall } from '../../../electron/core/inputs/upload-http';
import { UPLOADERS, type Uploader } from '../../../electron/core/inputs/uploaders';
import { ServiceClient, ServiceError } from '../../../electron/core/service';
import type { FetchLike } from '../../../electron/ports/http';
import type { InputImage } from '../../../shared/domain/image-inputs';
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

const KEY = 'upload-key-0123456789abcdef';
const MIB = 1024 * 1024;
const INPUT_BYTES = 16 * MIB;
/** Uploads waiting at once on a target that has stopped reading. */
const UPLOADS = 4;
/** What a target reads of a body before it stops reading (a slow or stalled storage). */
const READ_FIRST = MIB;

/** A body as a receiver got it: where, its bytes' digest and count, whether it reached its end. */
interface Received {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly whole: boolean;
  readonly body: Buffer | null;
}

/**
 * How the receiver takes bodies: all; the first MiB then wait; the first MiB then hang up; the
 * first MiB then answer, reading no more and keeping the connection open.
 */
type Taking = 'all' | 'stall' | 'hang-up' | 'answer-early';

/** The receiver's ways: how it takes bodies, whether it keeps them, where it redirects them. */
interface Receiving {
  current: Taking;
  readonly keep?: boolean;
  readonly redirectTo?: string;
  readonly redirectStatus?: number;
}

/**
 * The service and its storage on one loopback origin: fal's initiate, DashScope's policy, and the
 * bodies (fal's PUT, DashScope's form, Replicate's files), taken as `taking` says. `elsewhere`: a
 * redirect's target on another origin, which must never get a body.
 */
async function service(taking: Receiving) {
  const received: Received[] = [];
  /** Bytes read of each body so far, in the order they came. */
  const reading: number[] = [];
  const stalled: (() => void)[] = [];
  let count = 0;
  const answer = (response: ServerResponse, path: string, url: string) => {
    const json = (value: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (path.startsWith('/fal/initiate')) {
      count += 1;
      return json({
        upload_url: `${url}/storage/fal/${count}`,
        file_url: `https://cdn.test/${count}`,
      });
    }
    if (path.startsWith('/dashscope/policy')) {
      return json({
        data: {
          policy: 'cG9saWN5',
          signature: 'c2ln',
          upload_dir: 'dashscope-instant/abc',
          upload_host: `${url}/storage/oss`,
          oss_access_key_id: 'id',
          x_oss_object_acl: 'private',
          x_oss_forbid_overwrite: 'true',
        },
      });
    }
    if (path.startsWith('/replicate/files')) return json({ urls: { get: 'https://cdn.test/r' } });
    return response.writeHead(200).end();
  };
  const take = (request: IncomingMessage, response: ServerResponse, url: string) => {
    const path = request.url ?? '';
    if (taking.redirectTo !== undefined) {
      request.resume();
      response
        .writeHead(taking.redirectStatus ?? 307, { location: `${taking.redirectTo}${path}` })
        .end();
      return;
    }
    const hash = createHash('sha256');
    const index = reading.push(0) - 1;
    let done = false;
    const kept: Buffer[] | null = taking.keep === true ? [] : null;
    let bytes = 0;
    let held = false;
    request.on('data', (piece: Buffer) => {
      hash.update(piece);
      kept?.push(piece);
      bytes += piece.length;
      reading[index] = bytes;
      if (held || bytes < READ_FIRST || taking.current === 'all') return;
      held = true;
      if (taking.current === 'hang-up') {
        request.socket.destroy();
        return;
      }
      request.pause();
      if (taking.current === 'answer-early') answer(response, path, url);
      else stalled.push(() => request.resume());
    });
    const ended = (whole: boolean) => () => {
      if (done) return;
      done = true;
      const body = kept ? Buffer.concat(kept) : null;
      received.push({ path, sha256: hash.digest('hex'), bytes, whole, body });
    };
    request.on('end', () => {
      ended(true)();
      answer(response, path, url);
    });
    request.on('close', ended(false));
  };
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    if (request.method === 'GET' || path.startsWith('/fal/initiate')) {
      request.resume();
      request.on('end', () => answer(response, path, url));
    } else take(request, response, url);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url: string = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  });
  return {
    url,
    received,
    /** Bodies that have had at least `bytes` read. */
    readingAtLeast: (bytes: number) => reading.filter((got) => got >= bytes).length,
    release: () => stalled.splice(0).forEach((resume) => resume()),
  };
}

/** Descriptors of this process open on `path` (by the file they name: no number is assumed). */
async function openOn(path: string): Promise<number> {
  let found = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target === path) found += 1;
  }
  return found;
}

const TRANSPORTS: readonly [string, () => FetchLike][] = [
  ['the CLI’s fetch', () => createNodeFetch({})],
  ['main’s fetch', () => createMainFetch()],
];

/** Each uploader, what its body goes through, and the endpoint its first step asks. */
const UPLOADS_BY: readonly [string, Uploader, string][] = [
  ['fal (signed PUT, pinned)', UPLOADERS.fal!, '/fal/initiate'],
  ['DashScope (signed form, pinned)', UPLOADERS.dashscope!, '/dashscope/policy?action=getPolicy'],
  ['Replicate (keyed form, the service’s fetch)', UPLOADERS.replicate!, '/replicate/files'],
];

async function setUp(fetch: FetchLike, taking: Receiving) {
  const folder = await tempFolder('streamed-uploads');
  cleanups.push(() => removeFolder(folder));
  const store = new InputStore({ root: folder });
  const at = await service(taking);
  const stopped = new AbortController();
  cleanups.push(async () => stopped.abort(new Error('The test ended.')));
  const call = (signal = stopped.signal): UploadCall => ({
    fetch,
    signedFetch: createPinnedFetch(),
    resolve: async (host) => [{ address: host, family: 4 }],
    baseUrl: at.url,
    key: KEY,
    authHeaders: { Authorization: `Key ${KEY}` },
    keyOrigins: [],
    service: 'the service',
    signal,
  });
  const upload = (
    uploader: Uploader,
    endpoint: string,
    image: InputImage,
    options: { source?: ImageSource; signal?: AbortSignal } = {},
  ) =>
    uploader(call(options.signal), {
      image,
      source: options.source ?? store,
      endpoint: `${at.url}${endpoint}`,
      model: 'wanx2.1-imageedit',
    });
  const pathOf = (image: InputImage) => join(folder, ...store.relativePath(image).split('/'));
  return { store, at, upload, pathOf };
}

/** `store`, but `change` runs once the first piece of a body has been read (mid-send). */
function changingAfterFirstPiece(store: InputStore, change: () => Promise<void>): ImageSource {
  return {
    async *pieces(image, size) {
      let first = true;
      for await (const piece of store.pieces(image, size)) {
        yield piece;
        if (first) await change();
        first = false;
      }
    },
  };
}

/**
 * Heap and buffers in use, after a GC; twice, a turn apart: V8 sweeps freed buffers' memory after
 * the GC that found them, and a sweep still under way counts a dead 16 MiB image as held.
 */
const held = async () => {
  collect();
  await new Promise((turn) => setImmediate(turn));
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => null,
    (error: unknown) => error,
  );
}

describe.each(TRANSPORTS)('uploads streamed from their files (%s)', (_name, transport) => {
  describe.each(UPLOADS_BY)('%s', (_what, uploader, endpoint) => {
    it(`${UPLOADS} uploads of ${INPUT_BYTES / MIB} MiB wait on a target that stopped reading: main holds less than one input, then each arrives whole`, async () => {
      const taking = { current: 'stall' as Taking };
      const { store, at, upload } = await setUp(transport(), taking);
      const images: InputImage[] = [];
      for (let index = 0; index < UPLOADS; index += 1) {
        images.push(await store.put(await paddedPng(64, 40 + index, INPUT_BYTES, index + 1)));
      }
      // Once first, small: what a first upload loads (undici, the adapters' modules) is not counted.
      taking.current = 'all';
      await upload(uploader, endpoint, await store.put(await paddedPng(64, 30, 1024, 1)));
      at.received.splice(0);
      taking.current = 'stall';
      const before = await held();
      const uploads = images.map((image) => upload(uploader, endpoint, image));
      for (const one of uploads) one.catch(() => undefined);
      await vi.waitFor(() => expect(at.readingAtLeast(READ_FIRST)).toBe(UPLOADS), UNTIL);
      const growth = (await held()) - before;
      expect(growth, 'bytes main holds while the uploads wait').toBeLessThan(INPUT_BYTES);
      at.release();
      await Promise.all(uploads);
      expect(at.received.map((one) => one.whole)).toEqual(images.map(() => true));
      if (uploader === UPLOADERS.fal) {
        expect(new Set(at.received.map((one) => one.sha256))).toEqual(
          new Set(images.map((one) => one.sha256)),
        );
      }
    });

    it('an image changed or cut short on disk mid-send: the body never reaches its end, the upload fails with the store’s refusal', async () => {
      for (const change of ['changed', 'cut short'] as const) {
        const { store, at, upload, pathOf } = await setUp(transport(), { current: 'all' });
        const bytes = await paddedPng(64, 90, 4 * MIB, 3);
        const image = await store.put(bytes);
        const altered = Buffer.from(bytes);
        altered[altered.length - 100] = (altered[altered.length - 100] ?? 0) ^ 0xff;
        const source = changingAfterFirstPiece(store, () =>
          change === 'changed'
            ? writeFile(pathOf(image), altered)
            : truncate(pathOf(image), bytes.length / 2),
        );
        const failure = await failureOf(upload(uploader, endpoint, image, { source }));
        expect(failure, change).toBeInstanceOf(InputStoreError);
        expect((failure as InputStoreError).sentence?.key).toBe('error.inputs.tampered');
        await vi.waitFor(() => expect(at.received.length).toBe(1), UNTIL);
        expect(at.received[0]?.whole, `${change}: the target had the whole body`).toBe(false);
        expect(await openOn(pathOf(image))).toBe(0);
      }
    });

    it('an image deleted or replaced on disk mid-send: the bytes checked are the bytes sent, whole', async () => {
      for (const change of ['deleted', 'replaced'] as const) {
        const { store, at, upload, pathOf } = await setUp(transport(), {
          current: 'all',
          keep: true,
        });
        const bytes = await paddedPng(64, 91, 2 * MIB, 4);
        const image = await store.put(bytes);
        const other = await paddedPng(64, 20, 2 * MIB, 9);
        const source = changingAfterFirstPiece(store, async () => {
          if (change === 'deleted') return unlink(pathOf(image));
          await writeFile(`${pathOf(image)}.new`, other);
          return rename(`${pathOf(image)}.new`, pathOf(image));
        });
        await upload(uploader, endpoint, image, { source });
        const got = at.received[0];
        expect(got?.whole).toBe(true);
        expect(got?.body?.includes(bytes), `${change}: the original bytes sent`).toBe(true);
        expect(got?.body?.includes(other.subarray(0, 4096))).toBe(false);
      }
    });

    it('stopped mid-body: the upload ends with its reason, the file is let go, the target never has a whole body', async () => {
      const { store, at, upload, pathOf } = await setUp(transport(), { current: 'stall' });
      const image = await store.put(await paddedPng(64, 92, INPUT_BYTES, 5));
      const stop = new AbortController();
      const uploading = failureOf(upload(uploader, endpoint, image, { signal: stop.signal }));
      await vi.waitFor(() => expect(at.readingAtLeast(READ_FIRST)).toBe(1), UNTIL);
      const reason = new Error('The user stopped it.');
      stop.abort(reason);
      expect(await uploading).toBe(reason);
      await vi.waitFor(async () => expect(await openOn(pathOf(image))).toBe(0), UNTIL);
      at.release();
      await vi.waitFor(() => expect(at.received.map((one) => one.whole)).toEqual([false]), UNTIL);
    });

    it('a target that hangs up mid-body: a network failure without the key, the file let go', async () => {
      const { store, at, upload, pathOf } = await setUp(transport(), { current: 'hang-up' });
      const image = await store.put(await paddedPng(64, 93, INPUT_BYTES, 6));
      const failure = await failureOf(upload(uploader, endpoint, image));
      expect(failure).toBeInstanceOf(ServiceError);
      expect((failure as ServiceError).kind).toBe('network');
      expect(JSON.stringify(failure) + String(failure)).not.toContain(KEY);
      await vi.waitFor(async () => expect(await openOn(pathOf(image))).toBe(0), UNTIL);
      expect(at.received.map((one) => one.whole)).toEqual([false]);
    });

    it('a target that answers after a part of the body and reads no more: the file is let go once the answer is read', async () => {
      const { store, at, upload, pathOf } = await setUp(transport(), { current: 'answer-early' });
      const image = await store.put(await paddedPng(64, 95, INPUT_BYTES, 8));
      await failureOf(upload(uploader, endpoint, image));
      await vi.waitFor(async () => expect(await openOn(pathOf(image))).toBe(0), UNTIL);
      expect(at.readingAtLeast(INPUT_BYTES)).toBe(0);
    });

    it('a 307 to another origin: refused, the body never sent there', async () => {
      const elsewhere = await service({ current: 'all' });
      const { store, at, upload } = await setUp(transport(), {
        current: 'all',
        redirectTo: elsewhere.url,
      });
      const image = await store.put(await paddedPng(64, 94, 2 * MIB, 7));
      const failure = await failureOf(upload(uploader, endpoint, image));
      expect(failure).toBeInstanceOf(ServiceError);
      // Answered before the body's end, the target may close before the answer is read: a refusal
      // of the 307, or a connection lost; never followed.
      const { httpStatus, kind } = failure as ServiceError;
      expect([307, 'network']).toContain(httpStatus ?? kind);
      expect(elsewhere.received).toEqual([]);
      expect(at.received).toEqual([]);
    });
  });
});

describe.each(TRANSPORTS)('a streamed submit redirected away (%s)', (_name, transport) => {
  it.each([307, 308])(
    'a %d to another origin is refused: the body never sent there',
    async (status) => {
      const elsewhere = await service({ current: 'all' });
      const { store, at } = await setUp(transport(), {
        current: 'all',
        redirectTo: elsewhere.url,
        redirectStatus: status,
      });
      const source = await store.put(await paddedPng(64, 96, 2 * MIB, 9));
      const inline = new InlineImages(store);
      const placeholder = inline.add({ kind: 'inline-base64' } as InlineTransport, source);
      const request = {
        prompt: 'make it warmer',
        model: 'flux-kontext-pro',
        inputs: { operation: 'edit' as const, source },
      };
      const credentials = {
        baseUrl: at.url,
        key: KEY,
        keyFingerprint: 'f',
        provider: 'bfl' as const,
      };
      const client = new ServiceClient({ fetch: transport() });
      const failure = await failureOf(
        client.submit(credentials, request, new AbortController().signal, {
          source: placeholder,
          references: [],
          body: (json) => inline.body(json),
        }),
      );
      expect(failure).toBeInstanceOf(ServiceError);
      const refused = failure as ServiceError;
      expect([refused.sentence?.key, refused.httpStatus]).toEqual([
        'error.service.redirectElsewhere',
        status,
      ]);
      expect(elsewhere.received).toEqual([]);
    },
  );
});
