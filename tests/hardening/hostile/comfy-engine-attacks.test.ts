/**
 * ComfyUI as a local engine, walked as an attacker would (another local user's server on its
 * port, a broken proxy in front of it), beyond the paths and ids comfy-answers.test.ts covers:
 * `/view` fields written as controls, percent escapes or whole megabytes, or as something other
 * than text (read as the defaults they named another file: found, fixed); histories listing
 * thousands of images or never ending; `/prompt` answers without a usable `prompt_id`; redirects
 * away from the address the key is bound to; prompt ids named like an object's machinery. Each
 * through the real service client and answer worker over loopback HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { ServiceError } from '../../../electron/core/service';
import { MAX_HISTORY_ENTRIES } from '../../../electron/core/service/answer-limits';
import { MAX_IMAGES_PER_TASK, MAX_URL_CHARS } from '../../../shared/domain/limits';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, sendJson, serve } from '../../support/http-servers';
import { UNTIL } from '../../support/waits';

afterEach(closeServers);

const KEY = 'sk-comfy-proxy-key-5e1f0a';
const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 60_000,
  ...bundledAnswers(),
});

/** A proxied ComfyUI at `origin` (its Bearer key), or a local one (none). */
function at(origin: string, key = '') {
  return { baseUrl: origin, key, keyFingerprint: 'local', provider: 'comfyui' as const };
}

/** A history answer: prompt `id` finished with `outputs`. */
function finished(outputs: unknown, id = 'p-1'): unknown {
  const status = { status_str: 'success', completed: true, messages: [] };
  return { [id]: { status, outputs } };
}

/** What `getTask` gave or threw for a server answering every request with `answer`. */
async function polled(answer: unknown, id = 'p-1') {
  const server = await serve((_req, res) => sendJson(res, 200, answer));
  const task = await client.getTask(at(server.origin), id).catch((error: unknown) => error);
  return { task, origin: server.origin };
}

function refusedAsProtocol(thrown: unknown): void {
  expect(thrown).toBeInstanceOf(ServiceError);
  expect((thrown as ServiceError).kind).toBe('protocol');
}

describe("a ComfyUI history's /view fields", () => {
  it('written with controls, escapes or other scripts stay one value of one /view link', async () => {
    const names = ['a\u0000b.png', 'x\r\nSet-Cookie: a=b', '%00%2e%2e%2f.png', 'ß\u202e.png'];
    const images = names.map((filename) => ({
      filename,
      subfolder: 's\u0000/%2F',
      type: 'output',
    }));
    const { task, origin } = await polled(finished({ 9: { images } }));
    const done = task as { status: string; imageUrls: (string | null)[] };
    expect(done.status).toBe('completed');
    const urls = done.imageUrls.map((url) => new URL(url ?? ''));
    expect(urls.map((url) => url.origin)).toEqual(names.map(() => origin));
    expect(urls.map((url) => url.searchParams.get('filename'))).toEqual(names);
    for (const url of urls) {
      expect(url.pathname).toBe('/view');
      expect(url.searchParams.get('subfolder')).toBe('s\u0000/%2F');
      expect([...url.searchParams.keys()]).toEqual(['filename', 'subfolder', 'type']);
    }
  });

  it('too long for an address are refused image by image, the others kept', async () => {
    const images = [
      { filename: 'L'.repeat(100_000), type: 'output' },
      { filename: 'kept.png', subfolder: '', type: 'output' },
      { filename: 'b.png', subfolder: 'S'.repeat(MAX_URL_CHARS), type: 'output' },
    ];
    const { task } = await polled(finished({ 9: { images } }));
    expect(task).toMatchObject({
      status: 'completed',
      refusedImageSentences: {
        0: { key: 'error.service.imageUrlOverLong' },
        2: { key: 'error.service.imageUrlOverLong' },
      },
    });
    const urls = (task as { imageUrls: (string | null)[] }).imageUrls;
    expect(urls[0]).toBeNull();
    expect(new URL(urls[1] ?? '').searchParams.get('filename')).toBe('kept.png');
    expect(urls[2]).toBeNull();
  });

  it.each([
    ['a subfolder that is an object', { subfolder: { path: 'x' } }],
    ['a subfolder that is a number', { subfolder: 7 }],
    ['a subfolder that is null', { subfolder: null }],
    ['a type that is a list', { type: ['output'] }],
    ['a type that is a number', { type: 0 }],
  ])('given %s name no file at all (read as the defaults, they named another)', async (_, odd) => {
    // Previews only: every entry listed is read, whatever its type.
    const images = [
      { filename: 'same.png', subfolder: 'batch', type: 'temp', ...odd },
      { filename: 'ok.png', subfolder: '', type: 'temp' },
    ];
    const { task } = await polled(finished({ 9: { images } }));
    const urls = (task as { imageUrls: (string | null)[] }).imageUrls;
    expect(urls[0]).toBeNull();
    expect(new URL(urls[1] ?? '').searchParams.get('filename')).toBe('ok.png');
  });
});

describe('a ComfyUI history of thousands of images', () => {
  // A node lists its whole batch (ComfyUI's batches run to 4,096): read, the first kept.
  it('in one list: the task keeps its first ones and says how many were listed', async () => {
    const images = Array.from({ length: 5_000 }, (_, i) => ({
      filename: `${i}.png`,
      type: 'output',
    }));
    const { task } = await polled(finished({ 9: { images } }));
    const urls = (task as { imageUrls: (string | null)[] }).imageUrls;
    expect(urls.map((url) => new URL(url ?? '').searchParams.get('filename'))).toEqual(
      Array.from({ length: MAX_IMAGES_PER_TASK }, (_, i) => `${i}.png`),
    );
    expect(task).toMatchObject({
      noticeSentence: { key: 'error.service.tooManyImages', params: { count: 5_000 } },
    });
  });

  it(`in one list of more than ${MAX_HISTORY_ENTRIES}: refused as an answer, never read in part`, async () => {
    const images = Array.from({ length: MAX_HISTORY_ENTRIES + 1 }, (_, i) => ({
      filename: `${i}.png`,
    }));
    const { task } = await polled(finished({ 9: { images } }));
    refusedAsProtocol(task);
    expect((task as ServiceError).sentence).toMatchObject({
      key: 'error.service.answerTooManyEntriesQuery',
      params: { max: MAX_HISTORY_ENTRIES },
    });
  });

  it(`in several nodes of more than ${MAX_HISTORY_ENTRIES} in all: counted to that bound`, async () => {
    const node = (n: number) => ({
      images: Array.from({ length: 6_000 }, (_, i) => ({ filename: `${n}-${i}.png` })),
    });
    const { task } = await polled(finished({ 1: node(1), 2: node(2) }));
    expect(task).toMatchObject({
      imageUrls: expect.any(Array),
      noticeSentence: { params: { count: MAX_HISTORY_ENTRIES } },
    });
  });

  it('in twenty thousand output nodes: a few nodes read, the task keeps its most', async () => {
    const outputs = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [i, { images: [{ filename: `${i}.png` }] }]),
    );
    const { task } = await polled(finished(outputs));
    const urls = (task as { imageUrls: (string | null)[] }).imageUrls;
    expect(urls.map((url) => new URL(url ?? '').searchParams.get('filename'))).toEqual(
      Array.from({ length: MAX_IMAGES_PER_TASK }, (_, i) => `${i}.png`),
    );
  });
});

describe('a ComfyUI history that never ends', () => {
  it('is read to the answer limit, then refused and its connection closed', async () => {
    let sent = 0;
    let closed = false;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        '{"p-1":{"status":{"status_str":"success"},"outputs":{"9":{"images":[{"filename":"',
      );
      const chunk = 'A'.repeat(64 * 1024);
      const pump = () => {
        while (!closed && res.write(chunk)) sent += chunk.length;
      };
      res.on('drain', pump);
      res.on('error', () => undefined);
      res.on('close', () => (closed = true));
      pump();
    });
    const thrown = await client.getTask(at(server.origin), 'p-1').catch((error: unknown) => error);
    refusedAsProtocol(thrown);
    expect((thrown as ServiceError).detail).toMatch(/larger than \d+ bytes/);
    await expect.poll(() => closed, UNTIL).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('a ComfyUI /prompt answer without a usable prompt_id', () => {
  it.each([
    ['none', {}],
    ['a number', { prompt_id: 123 }],
    ['a number beyond exact', { prompt_id: 1e21 }],
    ['null', { prompt_id: null }],
    ['empty', { prompt_id: '' }],
    ['an object', { prompt_id: { id: 'p-1' } }],
    ['a list', { prompt_id: ['p-1'] }],
    ['with a space', { prompt_id: 'p 1' }],
    ['a step back', { prompt_id: '..' }],
    ['longer than an id', { prompt_id: 'p'.repeat(2_000) }],
    ['the key', { prompt_id: KEY }],
  ])('(%s) is refused: no task id is kept, the key in no word of it', async (_, answer) => {
    const server = await serve((_req, res) => sendJson(res, 200, answer));
    const thrown = await client
      .submit(at(server.origin, KEY), { prompt: 'a lighthouse' })
      .catch((error: unknown) => error);
    refusedAsProtocol(thrown);
    expect(JSON.stringify(thrown)).not.toContain(KEY);
    expect(server.requests.map((request) => request.url)).toEqual(['/prompt']);
  });
});

describe('a ComfyUI that redirects away from its address', () => {
  it.each([
    ['its history', (origin: string) => client.getTask(at(origin, KEY), 'p-1')],
    ['its prompt', (origin: string) => client.submit(at(origin, KEY), { prompt: 'a lighthouse' })],
  ])('sends nothing of %s elsewhere, its key least of all', async (_, send) => {
    const other = await serve((_req, res) => sendJson(res, 200, finished({})));
    const server = await serve((req, res) => {
      res.writeHead(307, { location: `${other.origin}${req.url ?? '/'}` }).end();
    });
    const thrown = await send(server.origin).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ServiceError);
    expect((thrown as ServiceError).sentence?.key).toBe('error.service.redirectElsewhere');
    expect(other.requests).toEqual([]);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe("prompt ids named like an object's machinery", () => {
  /** One saved image named `file`. */
  const saved = (file: string) => ({ 9: { images: [{ filename: file, type: 'output' }] } });

  it.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString'])(
    '%s is read at its own entry only (a computed key: an own property, as JSON.parse makes it)',
    async (id) => {
      const others = await polled(finished(saved('other.png'), 'x'), id);
      expect(others.task).toMatchObject({ status: 'processing' });
      const { task } = await polled(finished(saved('mine.png'), id), id);
      const urls = (task as { imageUrls: (string | null)[] }).imageUrls;
      const files = urls.map((url) => new URL(url ?? '').searchParams.get('filename'));
      expect(files).toEqual(['mine.png']);
    },
  );
});
