/**
 * InputSender against the real demo service in each dialect, over loopback (with Node's fetch and
 * the CLI's, createNodeFetch, whose multipart forms must arrive as forms): inputs read back
 * from a real store, sent inline or uploaded; the demo's storage origin (its signed targets)
 * records whether the key ever reached it. Consent, "never upload", the 48-hour reuse on a
 * manual clock, an input missing from the store and a service with no upload step are refused or
 * reused as the rules say.
 * A service that names its storage by a host name, on a network whose DNS answers the storage's
 * address first and a host on the user's network (127.0.0.2, same port) after: the image reaches
 * the storage alone, byte for byte, the DNS asked once, and the LAN host never.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InputImage } from '../../../../shared/domain/image-inputs';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';
import type {
  FetchLike,
  PinnedFetch,
  ResolvedAddress,
  Resolver,
} from '../../../../electron/ports/http';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { createNodeFetch } from '../../../../electron/adapters/node-fetch';
import { InputStore } from '../../../../electron/core/inputs/input-store';
import {
  InputSender,
  type InputSenderOptions,
  type InputSettings,
} from '../../../../electron/core/inputs/send-inputs';
import { UPLOADERS } from '../../../../electron/core/inputs/uploaders';
import { UploadMemory, UPLOAD_MEMORY_FILE } from '../../../../electron/core/inputs/upload-memory';
import { ServiceError } from '../../../../electron/core/service/service-error';
import type { SentInputs } from '../../../../electron/core/service';
import type { DemoService } from '../../../../electron/demo-service/types';
import { startDialect } from '../../demo-service/dialect-helpers';
import type { TestClock } from '../../demo-service/helpers';
import { sourcePng } from '../../demo-service/input-helpers';
import { startServer, type TestServer } from '../../../support/http-servers';
import { resolvingFetch, scriptedResolver } from '../../../support/pinned-helpers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const KEY = 'sk-inputs-secret-key-0042';
const ACCOUNTS = [{ account: 'alice', key: KEY }];
const HOUR = 3_600_000;

let folder: string;
let store: InputStore;

beforeEach(async () => {
  folder = await tempFolder('send-inputs');
  await mkdir(join(folder, 'gallery'));
  store = new InputStore({ root: join(folder, 'gallery') });
});
afterEach(() => removeFolder(folder));

interface Sending {
  readonly sender: InputSender;
  readonly service: DemoService;
  readonly clock: TestClock;
  readonly settings: { current: InputSettings };
}

/** The sender's network: its resolver and pinned fetch, and a service fetch made for the demo. */
interface Network extends Pick<
  InputSenderOptions,
  'resolve' | 'signedFetch' | 'uploaders' | 'heldKeys'
> {
  readonly fetchFor?: (service: DemoService) => FetchLike;
}

async function sending(
  dialect: ProviderId,
  fetchWith: FetchLike = fetch,
  { fetchFor, ...ports }: Network = {},
): Promise<Sending> {
  const { service, clock } = await startDialect({ dialect, accounts: ACCOUNTS });
  const settings = {
    current: { neverUploadInputs: false, publicUploadConsent: [] } as InputSettings,
  };
  const sender = new InputSender({
    store,
    fetch: fetchFor ? fetchFor(service) : fetchWith,
    settings: () => settings.current,
    memory: new UploadMemory(folder, clock.now),
    now: clock.now,
    ...ports,
  });
  return { sender, service, clock, settings };
}

function editOf(model: string, source: InputImage, route?: 'upload'): GenerationRequest {
  return {
    prompt: 'make it blue',
    model,
    inputs: { operation: 'edit', source, ...(route ? { route } : {}) },
  };
}

/** `request` as a task for `provider` at the service `sending` stands in for, its key the test's. */
function taskOf<P extends ProviderId>(sending: Sending, provider: P, request: GenerationRequest) {
  const credentials = { baseUrl: sending.service.url, key: KEY, keyFingerprint: 'f', provider };
  return { provider, request, credentials };
}

function send(sending: Sending, provider: ProviderId, request: GenerationRequest) {
  const signal = new AbortController().signal;
  return sending.sender
    .send({ ...taskOf(sending, provider, request), signal }, (sent) => Promise.resolve(sent))
    .then(asSent);
}

/**
 * The images as the service receives them: an inline image's placeholder replaced by its bytes,
 * read from its file as a body made of the JSON text is (its length said before it is read).
 */
async function asSent({ body, ...sent }: SentInputs): Promise<Omit<SentInputs, 'body'>> {
  if (!body) return sent;
  const streamed = body(JSON.stringify(sent));
  const text = await new Response(streamed.open()).text();
  expect(Buffer.byteLength(text)).toBe(streamed.length);
  return JSON.parse(text) as Omit<SentInputs, 'body'>;
}

async function refused(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const failure = error as ServiceError;
  expect(`${failure.message} ${failure.detail ?? ''}`).not.toContain(KEY);
  return failure;
}

describe('InputSender inline', () => {
  it('sends a bare base64 to BFL and a data: URI to fal, read back from the store', async () => {
    const bytes = await sourcePng();
    const source = await store.put(bytes);
    const bfl = await sending('bfl');
    expect(await send(bfl, 'bfl', editOf('flux-kontext-pro', source))).toEqual({
      source: bytes.toString('base64'),
      references: [],
    });
    const fal = await sending('fal');
    expect(await send(fal, 'fal', editOf('fal-ai/flux-pro/kontext', source))).toEqual({
      source: `data:image/png;base64,${bytes.toString('base64')}`,
      references: [],
    });
    expect(fal.service.storage.requests).toEqual([]);
  });

  it('a send stopped while it waits its turn leaves the line at once, with its reason', async () => {
    const source = await store.put(await sourcePng());
    const bfl = await sending('bfl');
    const request = editOf('flux-kontext-pro', source);
    const task = taskOf(bfl, 'bfl', request);
    // The first holds the service's turn: its body is never read, its submit never answered.
    void bfl.sender.send(
      { ...task, signal: new AbortController().signal },
      () => new Promise(() => undefined),
    );
    const stop = new AbortController();
    const reason = new Error('the engine stopped');
    const waiting = bfl.sender.send({ ...task, signal: stop.signal }, (sent) =>
      Promise.resolve(sent),
    );
    stop.abort(reason);
    expect(
      await waiting.then(
        () => null,
        (error: unknown) => error,
      ),
    ).toBe(reason);
  });

  it('refuses an input missing from the store, and a model that takes no image, sending nothing', async () => {
    const source = await store.put(await sourcePng());
    await rm(join(folder, 'gallery', store.relativePath(source)));
    const bfl = await sending('bfl');
    const missing = await refused(send(bfl, 'bfl', editOf('flux-kontext-pro', source)));
    expect(missing.sentence?.key).toBe('error.inputs.missing');
    const none = await refused(send(bfl, 'bfl', editOf('flux-dev', source)));
    expect(none.sentence?.key).toBe('error.inputs.noModel');
    expect(bfl.service.log.requests).toEqual([]);
  });
});

describe('InputSender uploads', () => {
  it('asks consent before a fal upload makes a public link, then never gives the signed target the key', async () => {
    const source = await store.put(await sourcePng());
    const fal = await sending('fal');
    const request = editOf('fal-ai/flux-pro/kontext', source, 'upload');
    const asked = await refused(send(fal, 'fal', request));
    expect(asked.sentence?.key).toBe('error.inputs.consentNeeded');
    expect(fal.service.log.requests).toEqual([]);
    fal.settings.current = { neverUploadInputs: false, publicUploadConsent: ['fal'] };
    const sent = await send(fal, 'fal', request);
    expect(sent.source).toMatch(new RegExp(`^${fal.service.url}/media/`));
    const served = await fetch(sent.source);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(await store.read(source));
    expect(fal.service.storage.requests).toEqual([
      expect.objectContaining({ method: 'PUT', keySeen: false, status: 200 }),
    ]);
    expect(fal.service.storage.requests[0]?.headerNames).not.toContain('authorization');
  });

  it('refuses an upload under "never upload inputs", before any request; DashScope then goes inline', async () => {
    const bytes = await sourcePng();
    const source = await store.put(bytes);
    const dashscope = await sending('dashscope');
    dashscope.settings.current = { neverUploadInputs: true, publicUploadConsent: [] };
    const asked = editOf('wanx2.1-imageedit', source, 'upload');
    const never = await refused(send(dashscope, 'dashscope', asked));
    // The model takes inline too: the sentence names the task's ask, not "only by upload".
    expect(never.sentence?.key).toBe('error.inputs.uploadOff');
    expect(dashscope.service.log.requests).toEqual([]);
    // DashScope documents Base64 data URIs for its image fields: a small image goes inline.
    const inline = await send(dashscope, 'dashscope', editOf('wanx2.1-imageedit', source));
    expect(inline).toEqual({
      source: `data:image/png;base64,${bytes.toString('base64')}`,
      references: [],
    });
    expect(dashscope.service.log.requests).toEqual([]);
    expect(dashscope.service.storage.requests).toEqual([]);
  });

  it('says it cannot upload to a service with no upload step (not that an input is too large), sending nothing', async () => {
    const source = await store.put(await sourcePng());
    const { dashscope: _left, ...others } = UPLOADERS;
    const dashscope = await sending('dashscope', fetch, { uploaders: others });
    const none = await refused(
      send(dashscope, 'dashscope', editOf('wanx2.1-imageedit', source, 'upload')),
    );
    expect(none.sentence).toEqual({
      key: 'error.inputs.noUploader',
      params: { service: 'Alibaba Cloud DashScope' },
    });
    expect(none.message).toContain('cannot upload to Alibaba Cloud DashScope yet');
    expect(dashscope.service.log.requests).toEqual([]);
    expect(dashscope.service.storage.requests).toEqual([]);
  });

  it('uploads to Replicate files with the key and names urls.get', async () => {
    const source = await store.put(await sourcePng());
    const replicate = await sending('replicate');
    const request = editOf('black-forest-labs/flux-kontext-pro', source, 'upload');
    const sent = await send(replicate, 'replicate', request);
    expect(sent.source).toMatch(new RegExp(`^${replicate.service.url}/v1/files/`));
  });

  it('lets the turn go once its uploads are made: a second edit of the same service is sent while the first waits for its answer', async () => {
    const source = await store.put(await sourcePng());
    const replicate = await sending('replicate');
    const request = editOf('black-forest-labs/flux-kontext-pro', source, 'upload');
    const task = taskOf(replicate, 'replicate', request);
    const stopped = new AbortController();
    // The first submit is never answered: its links are all it carries.
    const first = replicate.sender.send(
      { ...task, signal: stopped.signal },
      () => new Promise(() => undefined),
    );
    const second = await replicate.sender.send({ ...task, signal: stopped.signal }, (sent) =>
      Promise.resolve(sent),
    );
    expect(second.source).toMatch(new RegExp(`^${replicate.service.url}/v1/files/`));
    void first;
  });

  it("searches an upload's answers for every key the process holds, the key sent first", async () => {
    const source = await store.put(await sourcePng());
    const searched: (readonly string[] | undefined)[] = [];
    const replicate = await sending('replicate', fetch, {
      heldKeys: () => Promise.resolve(['sk-replaced-held-key-0077', KEY, '']),
      uploaders: {
        ...UPLOADERS,
        replicate: (call, job) => {
          searched.push(call.secrets);
          return UPLOADERS.replicate!(call, job);
        },
      },
    });
    const sent = await send(
      replicate,
      'replicate',
      editOf('black-forest-labs/flux-kontext-pro', source, 'upload'),
    );
    expect(sent.source).toMatch(new RegExp(`^${replicate.service.url}/v1/files/`));
    expect(searched).toEqual([[KEY, 'sk-replaced-held-key-0077']]);
  });

  it('reuses a DashScope upload while more than an hour of its 48 is left, then uploads again', async () => {
    const source = await store.put(await sourcePng());
    const dashscope = await sending('dashscope');
    const request = editOf('wanx2.1-imageedit', source, 'upload');
    const first = await send(dashscope, 'dashscope', request);
    expect(first.source).toMatch(/^oss:\/\/dashscope-instant\/.+\.png$/);
    expect(dashscope.service.storage.requests).toHaveLength(1);
    expect(dashscope.service.storage.requests[0]).toMatchObject({ keySeen: false, status: 200 });
    dashscope.clock.advance(46 * HOUR);
    expect(await send(dashscope, 'dashscope', request)).toEqual(first);
    expect(dashscope.service.storage.requests).toHaveLength(1);
    dashscope.clock.advance(1.5 * HOUR);
    const again = await send(dashscope, 'dashscope', request);
    expect(again.source).toMatch(/^oss:\/\//);
    expect(dashscope.service.storage.requests).toHaveLength(2);
    expect(await readdir(folder)).toContain(UPLOAD_MEMORY_FILE);
  });

  it('DashScope with the CLI’s fetch: the policy asked through it, the OSS form stored', async () => {
    const source = await store.put(await sourcePng());
    const dashscope = await sending('dashscope', createNodeFetch({}));
    const sent = await send(dashscope, 'dashscope', editOf('wanx2.1-imageedit', source, 'upload'));
    expect(sent.source).toMatch(/^oss:\/\/dashscope-instant\/.+\.png$/);
    expect(dashscope.service.storage.requests).toEqual([
      expect.objectContaining({ method: 'POST', keySeen: false, status: 200 }),
    ]);
  });

  it('Replicate with the CLI’s fetch: the files form arrives whole (its size and digest)', async () => {
    const bytes = await sourcePng();
    const source = await store.put(bytes);
    const replicate = await sending('replicate', createNodeFetch({}));
    const request = editOf('black-forest-labs/flux-kontext-pro', source, 'upload');
    const sent = await send(replicate, 'replicate', request);
    const file = await fetch(sent.source, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await file.json()).toMatchObject({
      size: bytes.length,
      content_type: 'image/png',
      checksums: { sha256: source.sha256 },
    });
  });
});

const NAME = 'storage.pictor.test';

/**
 * A service that names its storage by a host name, as real ones do (its answers' storage origin
 * rewritten to `NAME`), reached by a fetch that resolves every name through `dns`.
 */
function namingStorage(service: DemoService, dns: Resolver): FetchLike {
  const named = service.storage.url.replace('127.0.0.1', NAME);
  const network = resolvingFetch(dns);
  return async (url, init) => {
    const response = await network(url, init);
    if (!url.startsWith(service.url)) return response;
    const text = (await response.text()).replaceAll(service.storage.url, named);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(text, { status: response.status, headers });
  };
}

let lan: TestServer | undefined;
afterEach(async () => {
  await lan?.close();
  lan = undefined;
});

/** A DNS that rebinds `NAME` to a LAN host (127.0.0.2 at the storage's port) after one answer. */
async function rebinding(dialect: ProviderId) {
  const dns = scriptedResolver({ [NAME]: [['127.0.0.1'], ['127.0.0.2']] });
  const pins: ResolvedAddress[] = [];
  const pinned = createPinnedFetch();
  const signedFetch: PinnedFetch = (url, init, address) => {
    pins.push(address);
    return pinned(url, init, address);
  };
  const fetchFor = (service: DemoService) => namingStorage(service, dns);
  const sent = await sending(dialect, fetch, { fetchFor, resolve: dns, signedFetch });
  const port = Number(new URL(sent.service.storage.url).port);
  lan = await startServer((_, res) => res.end(), { host: '127.0.0.2', port });
  return { ...sent, dns, pins, lan };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('InputSender uploads over a rebinding DNS', () => {
  it('fal: the signed PUT reaches the storage alone, byte for byte, the DNS asked once', async () => {
    const bytes = await sourcePng();
    const source = await store.put(bytes);
    const fal = await rebinding('fal');
    fal.settings.current = { neverUploadInputs: false, publicUploadConsent: ['fal'] };
    const sent = await send(fal, 'fal', editOf('fal-ai/flux-pro/kontext', source, 'upload'));
    expect(sent.source).toMatch(new RegExp(`^${fal.service.url}/media/`));
    expect(fal.lan.requests).toEqual([]);
    expect(fal.dns.asked).toEqual([NAME]);
    expect(fal.pins).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(fal.service.storage.requests).toEqual([
      expect.objectContaining({
        method: 'PUT',
        keySeen: false,
        status: 200,
        stored: { bytes: bytes.length, sha256: sha256(bytes), contentType: 'image/png' },
      }),
    ]);
    expect(fal.service.storage.requests[0]?.headerNames).not.toContain('authorization');
  });

  it('DashScope: the OSS form reaches the storage alone, its file byte for byte', async () => {
    const bytes = await sourcePng();
    const source = await store.put(bytes);
    const dashscope = await rebinding('dashscope');
    const sent = await send(dashscope, 'dashscope', editOf('wanx2.1-imageedit', source, 'upload'));
    expect(sent.source).toMatch(/^oss:\/\/dashscope-instant\/.+\.png$/);
    expect(dashscope.lan.requests).toEqual([]);
    expect(dashscope.dns.asked).toEqual([NAME]);
    expect(dashscope.pins).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(dashscope.service.storage.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        keySeen: false,
        status: 200,
        stored: { bytes: bytes.length, sha256: sha256(bytes), contentType: 'image/png' },
      }),
    ]);
  });
});
