/**
 * Hostile answers in each of the five dialects (today's contract, fal, Replicate, DashScope,
 * BFL), each at the place its profile reads: an inline image where the dialect may carry one (a
 * dialect that may not refuses it as too large), a list of 29 million entries, nesting past the
 * bound, a 1 MiB failure message, the key echoed in a failure beside a large payload, escapes
 * inside base64, duplicate names, huge numbers. Through the real service client and its answer
 * worker over loopback HTTP. Every answer ends as a typed task or a ServiceError with a sentence,
 * never carries the key, and costs the main thread no parsing or key search (counted).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ANSWER_DEPTH } from '../../../electron/core/service/answer-limits';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { ServiceError } from '../../../electron/core/service/service-error';
import type { ProviderId } from '../../../shared/domain/providers';
import type { ServiceTask } from '../../../shared/service/wire';
import { startServer, type TestServer } from '../../support/http-servers';
import { countMainThreadParsing, mainThreadWork } from '../support/main-thread-work';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';

vi.mock('../../../electron/core/secrets/key-echo', async (importOriginal) => {
  const { countedKeySearch } = await import('../support/main-thread-work');
  return countedKeySearch(await importOriginal());
});

const FILE = 'tests/hardening/hostile/dialect-answers.test.ts';
const KEY = 'sk-dialects-0123456789abcdef';
const MIB = 1024 * 1024;
const MAIN_THREAD_BUDGET = 4 * 1024;

/** How a dialect says a task completed, failed or listed things, and where it is asked. */
interface Dialect {
  readonly provider: ProviderId;
  /** Whether its task answer may carry images inline (larger than the usual limit). */
  readonly inline: boolean;
  /** Whether the answer that says it failed is that answer (fal's is its status, never inline). */
  readonly failsInline: boolean;
  completed(url: string): string;
  failed(message: string): string;
  /** An answer whose list the profile reads holds `entries` (raw JSON entries, joined). */
  listing(entries: string): string;
}

/**
 * ComfyUI is not here: its history names files (made into `/view` links under its own address,
 * never links it gives) and carries no image inline; its hostile histories are in
 * tests/hardening/hostile/comfy-answers.test.ts.
 */
const DIALECTS: Record<Exclude<ProviderId, 'comfyui'>, Dialect> = {
  pictor: {
    provider: 'pictor',
    inline: true,
    failsInline: true,
    completed: (url) => `{"status":"completed","output":{"data":[{"url":${url}}]}}`,
    failed: (message) => `{"status":"failed","error":{"message":${message}}}`,
    listing: (entries) => `{"status":"processing","output":{"data":[${entries}]}}`,
  },
  replicate: {
    provider: 'replicate',
    inline: true,
    failsInline: true,
    completed: (url) => `{"id":"t1","status":"succeeded","output":[${url}]}`,
    failed: (message) => `{"id":"t1","status":"failed","error":${message}}`,
    listing: (entries) => `{"id":"t1","status":"processing","output":[${entries}]}`,
  },
  fal: {
    provider: 'fal',
    inline: true,
    failsInline: false,
    completed: (url) => `{"images":[{"url":${url}}]}`,
    failed: (message) => `{"status":"COMPLETED","error":${message}}`,
    listing: (entries) => `{"images":[${entries}]}`,
  },
  dashscope: {
    provider: 'dashscope',
    inline: false,
    failsInline: false,
    completed: (url) => `{"output":{"task_status":"SUCCEEDED","results":[{"url":${url}}]}}`,
    failed: (message) => `{"output":{"task_status":"FAILED","code":"E","message":${message}}}`,
    listing: (entries) => `{"output":{"task_status":"RUNNING","results":[${entries}]}}`,
  },
  bfl: {
    provider: 'bfl',
    inline: false,
    failsInline: false,
    completed: (url) => `{"id":"t1","status":"Ready","result":{"sample":${url}}}`,
    failed: (message) => `{"id":"t1","status":"Error","details":${message}}`,
    listing: (entries) => `{"id":"t1","status":"Pending","result":{"extra":[${entries}]}}`,
  },
};

let server: TestServer;
/** fal's status answer, then the answer under test at every dialect's task address. */
let answer = Buffer.alloc(0);
let falStatus = '{"status":"COMPLETED"}';
let stopCounting = (): void => undefined;
const tried: Record<string, number> = {};
/** Answers whose result carried the key or a run of it (counted before it is asserted). */
let leaks = 0;
/** The most the main thread parsed, and searched for the key, of any one answer (characters). */
const most = { parsed: 0, searched: 0 };

beforeAll(async () => {
  stopCounting = countMainThreadParsing();
  server = await startServer((req, res) => {
    const body = req.url?.endsWith('/status') ? Buffer.from(falStatus) : answer;
    // A fresh connection per answer: one the client gave up mid-body is never reused.
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': body.length,
      Connection: 'close',
    });
    res.end(body);
  });
});

afterAll(async () => {
  stopCounting();
  await server.close();
});

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 120_000,
  ...bundledAnswers(),
});

function noise(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = (i * 2_654_435_761 + seed * 97) >>> 24;
  return bytes;
}

/** Every string a result holds, but an inline image's bytes. */
function textOf(result: ServiceTask | Error): string {
  if (result instanceof ServiceError) return `${result.message} ${result.detail ?? ''}`;
  if (result instanceof Error) return result.message;
  return JSON.stringify(result, (name, value: unknown) => (name === 'bytes' ? '(bytes)' : value));
}

/** One poll of `text` in `dialect`: its result, checked to be clean and cheap for main. */
async function poll(dialect: Dialect, text: string | Buffer, status?: string) {
  answer = Buffer.from(text);
  falStatus = status ?? '{"status":"COMPLETED"}';
  const credentials = {
    baseUrl: server.origin,
    key: KEY,
    keyFingerprint: 'acct',
    provider: dialect.provider,
  };
  const ref = { taskId: 't1', request: { prompt: 'a cat', model: 'fal-ai/flux/dev' } };
  const work = await mainThreadWork(() => client.getTask(credentials, ref));
  answer = Buffer.alloc(0);
  most.parsed = Math.max(most.parsed, work.parsed);
  most.searched = Math.max(most.searched, work.searched);
  const { result } = work;
  tried[dialect.provider] = (tried[dialect.provider] ?? 0) + 1;
  if (result instanceof Error) {
    expect(result, result.message).toBeInstanceOf(ServiceError);
    expect((result as ServiceError).sentence).toBeDefined();
  }
  if (textOf(result).includes(KEY.slice(4, 16))) leaks += 1;
  expect(textOf(result)).not.toContain(KEY);
  expect(textOf(result)).not.toContain(KEY.slice(4, 16));
  expect(work.parsed, 'characters parsed on the main thread').toBeLessThanOrEqual(
    MAIN_THREAD_BUDGET,
  );
  expect(work.searched, 'characters searched on the main thread').toBeLessThanOrEqual(
    MAIN_THREAD_BUDGET,
  );
  return result;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function imageOf(result: ServiceTask | Error) {
  if (result instanceof Error || result.status !== 'completed') return undefined;
  return result.inlineImages?.[0];
}

describe.each(Object.values(DIALECTS))('hostile answers in $provider’s dialect', (dialect) => {
  it('an 8 MiB inline image: decoded where the dialect may carry one, else refused', async () => {
    const image = noise(8 * MIB, 1);
    const url = `"data:image/png;base64,${image.toString('base64')}"`;
    const result = await poll(dialect, dialect.completed(url));
    if (dialect.inline) expect(imageOf(result)?.sha256).toBe(sha(image));
    else expect(result).toBeInstanceOf(ServiceError);
  });

  it('escapes inside the base64 decode to the same image', async () => {
    const image = noise(200_000, 2);
    const escaped = JSON.stringify(`data:image/png;base64,${image.toString('base64')}`)
      .replace(/\//g, '\\/')
      .replace(/A/g, '\\u0041');
    const result = await poll(dialect, dialect.completed(escaped));
    expect(imageOf(result)?.sha256).toBe(sha(image));
  });

  it('a list of 29 million entries is refused', async () => {
    const entries = Buffer.alloc(29_000_000 * 3 - 1, '{},');
    const [head, tail] = dialect.listing('|').split('|') as [string, string];
    const text = Buffer.concat([Buffer.from(head), entries, Buffer.from(tail)]);
    const result = await poll(dialect, text, dialect.listing('{}'));
    expect(result).toBeInstanceOf(ServiceError);
  });

  it('nesting past the bound is refused', async () => {
    const deep = `${'['.repeat(MAX_ANSWER_DEPTH + 1)}${']'.repeat(MAX_ANSWER_DEPTH + 1)}`;
    const result = await poll(dialect, dialect.failed(deep), dialect.failed(deep));
    expect(result).toBeInstanceOf(ServiceError);
  });

  it('a 1 MiB failure message is a failure in a sentence’s length', async () => {
    const words = JSON.stringify('The image could not be made. '.repeat(MIB / 32));
    const result = await poll(dialect, dialect.failed(words), dialect.failed(words));
    expect(result).toMatchObject({ status: 'failed' });
    expect(textOf(result).length).toBeLessThan(1_000);
  });

  it('the key in a failure beside a large payload never comes back', async () => {
    const payload = dialect.failsInline ? noise(20 * MIB, 3).toString('base64') : 'AAAA';
    const escaped = [...KEY].map(
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const message = `"bad key ${escaped.join('')}","blob":"${payload}"`;
    const result = await poll(dialect, dialect.failed(message), dialect.failed(message));
    expect(result).toMatchObject({ status: 'failed' });
  });

  it('duplicate names and huge numbers read as JSON.parse reads them', async () => {
    const text = dialect.completed(`"https://cdn.example.com/a.png"`);
    const doubled = `{"status":"failed","progress":1e999999,"n":-0.0e-99999,${text.slice(1)}`;
    const result = await poll(dialect, doubled, '{"status":"IN_QUEUE","status":"COMPLETED"}');
    expect(result).toMatchObject({
      status: 'completed',
      imageUrls: ['https://cdn.example.com/a.png'],
    });
  });
});

describe('the hostile dialect answers', () => {
  it('were all read or refused cleanly', () => {
    expect(Object.keys(tried)).toHaveLength(5);
    recordReliability({
      section: 'hostile-input',
      row: 'Hostile answers in each of the five dialects',
      load: 'each dialect’s own places, through the real service client and its answer worker over loopback: an 8 MiB inline image, escapes inside base64, 29 million list entries, nesting past the bound, a 1 MiB failure message, the key beside a 20 MiB payload, duplicate names and huge numbers',
      injected: tried,
      outcome: {
        'answers that ended as a task or a ServiceError with a sentence': Object.values(
          tried,
        ).reduce((sum, n) => sum + n, 0),
        'most characters of one answer parsed on the main thread': most.parsed,
        'most characters of one answer searched for the key on the main thread': most.searched,
      },
      lost: NOT_MEASURED,
      duplicated: NOT_MEASURED,
      leaked: leaks,
      file: FILE,
    });
  });
});
