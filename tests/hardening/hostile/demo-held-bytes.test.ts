/**
 * The built-in demo service runs inside the app, on a loopback port every local user can reach,
 * and some of its routes need no key (ComfyUI's) or a public one (the demo's own). What it holds
 * for its callers is bounded (its `maxHeldBytes`) whatever they send: request bodies being read
 * over every connection (each alone was bounded, their number was not), uploaded files (kept
 * without end before), open upload slots and the storage origin's request record. Real HTTP on
 * loopback, raw sockets for the bodies left half-sent.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { UNTIL } from '../../support/waits';

const MiB = 1024 * 1024;
/** The demo's bound in these tests: small, so a few bodies pass it. */
const HELD = 8 * MiB;

let service: DemoService | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await service?.close();
  service = undefined;
});

/** A client's connection and what came back on it. */
interface Sending {
  readonly socket: Socket;
  /** Whether the server has closed the connection. */
  closed(): boolean;
  /** The status line the server answered, once it has. */
  status(): string | null;
  /** Sends `bytes` more of the body; resolves once the socket has taken them. */
  send(bytes: number): Promise<void>;
}

/** A POST to `path` declaring a body of `length` bytes, of which nothing is sent yet. */
async function sending(url: string, path: string, length: number): Promise<Sending> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let closed = false;
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer demo\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
  );
  return {
    socket,
    closed: () => closed,
    status: () => /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? null,
    send: (bytes) =>
      new Promise((resolve) => {
        if (socket.destroyed || !socket.write(Buffer.alloc(bytes, 0x20))) {
          if (socket.destroyed) resolve();
          else socket.once('drain', resolve).once('close', resolve);
        } else resolve();
      }),
  };
}

describe('request bodies being read, over every connection', () => {
  it('hold at most the bound: a body past it is dropped, the others are answered, and room comes back', async () => {
    service = await startDemoService({ maxHeldBytes: HELD });
    const first = await sending(service.url, '/v1/images/generations', 4 * MiB);
    const second = await sending(service.url, '/v1/images/generations', 4 * MiB);
    await first.send(3 * MiB);
    await second.send(3 * MiB);
    await vi.waitFor(() => expect(service!.held().bodies).toBe(6 * MiB), UNTIL);

    // A third caller's body would take the demo past its bound: its connection is closed.
    const third = await sending(service.url, '/v1/images/generations', 4 * MiB);
    await third.send(3 * MiB);
    await vi.waitFor(() => expect(third.closed()).toBe(true), UNTIL);
    expect(third.status(), 'the dropped body is answered nothing').toBeNull();
    expect(service.held().bodies).toBe(6 * MiB);

    // The first two end their bodies and are answered (400: spaces are no JSON); their room is
    // given back, and a new caller's body of the same size is read and answered whole.
    await first.send(MiB);
    await second.send(MiB);
    await vi.waitFor(
      () => expect([first.status(), second.status()]).toEqual(['400', '400']),
      UNTIL,
    );
    await vi.waitFor(() => expect(service!.held().bodies).toBe(0), UNTIL);
    const fourth = await sending(service.url, '/v1/images/generations', 4 * MiB);
    await fourth.send(4 * MiB);
    await vi.waitFor(() => expect(fourth.status()).toBe('400'), UNTIL);
    expect(service.held().bodies).toBe(0);
  });

  it('a caller that goes away mid-body gives its room back', async () => {
    service = await startDemoService({ maxHeldBytes: HELD });
    const gone = await sending(service.url, '/v1/images/generations', 4 * MiB);
    await gone.send(2 * MiB);
    await vi.waitFor(() => expect(service!.held().bodies).toBe(2 * MiB), UNTIL);
    gone.socket.destroy();
    await vi.waitFor(() => expect(service!.held().bodies).toBe(0), UNTIL);
  });

  it('counts the storage origin’s bodies in the same bound', async () => {
    service = await startDemoService({ maxHeldBytes: HELD });
    const api = await sending(service.url, '/v1/images/generations', 8 * MiB);
    await api.send(5 * MiB);
    await vi.waitFor(() => expect(service!.held().bodies).toBe(5 * MiB), UNTIL);
    const upload = await sending(service.storage.url, '/files/anything', 8 * MiB);
    await upload.send(4 * MiB);
    await vi.waitFor(() => expect(upload.closed()).toBe(true), UNTIL);
    expect(service.held().bodies).toBe(5 * MiB);
  });
});

/** A PNG's signature before `bytes` of padding: what ComfyUI's upload checks is an image. */
function pngOf(bytes: number, fill: number): Buffer {
  const png = Buffer.alloc(bytes, fill);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
  return png;
}

async function comfyUpload(url: string, png: Buffer, name: string): Promise<Response> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  return fetch(new URL('/upload/image', url), { method: 'POST', body: form });
}

describe('uploaded files, kept by a service with no key (ComfyUI)', () => {
  it('are held at most the bound together: the oldest are forgotten first, the newest served', async () => {
    service = await startDemoService({ dialect: 'comfyui', maxHeldBytes: HELD });
    const names: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      const answer = await comfyUpload(service.url, pngOf(3 * MiB, n), `input_${n}.png`);
      expect(answer.status).toBe(200);
      names.push(((await answer.json()) as { name: string }).name);
      expect(service.held().uploads).toBeLessThanOrEqual(HELD);
    }
    expect(service.held().uploads).toBe(6 * MiB);
    const views = await Promise.all(
      names.map(async (name) => {
        const view = new URL('/view', service!.url);
        view.search = new URLSearchParams({ filename: name, type: 'input' }).toString();
        const answer = await fetch(view);
        return answer.status === 200 ? (await answer.bytes())[100] : answer.status;
      }),
    );
    // The last two, each its own bytes; the four before them forgotten, as expired uploads.
    expect(views).toEqual([404, 404, 404, 404, 4, 5]);
  });

  it('one name uploaded again replaces its bytes, counted once', async () => {
    service = await startDemoService({ dialect: 'comfyui', maxHeldBytes: HELD });
    for (let n = 0; n < 5; n += 1)
      expect((await comfyUpload(service.url, pngOf(3 * MiB, n), 'same.png')).status).toBe(200);
    expect(service.held().uploads).toBe(3 * MiB);
  });
});

describe('tasks, submitted with the demo’s public key or none (ComfyUI)', () => {
  /** About 31 KB a task: its prompt of 30,000 characters. */
  const longPrompt = (n: number) => `${n} ${'a quiet harbour '.repeat(1_875)}`;
  const BOUND = 100_000;

  it('are held within the bound: a submit past it is a busy service’s 429, finished ones are forgotten', async () => {
    let now = 1_000;
    service = await startDemoService({ maxHeldBytes: BOUND, durationMs: 100, now: () => now });
    const submit = (n: number) =>
      fetch(new URL('/v1/images/generations', service!.url), {
        method: 'POST',
        headers: { Authorization: 'Bearer demo', 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: longPrompt(n) }),
      });
    const ids: string[] = [];
    let answer = await submit(0);
    for (let n = 1; answer.status === 200 && n < 20; n += 1) {
      ids.push(((await answer.json()) as { id: string }).id);
      answer = await submit(n);
    }
    // Running tasks are never forgotten: the submit past the bound is refused, to be tried later.
    expect(ids).toHaveLength(4);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('60');
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(service.held().tasks).toBeLessThan(BOUND + 35_000);

    // Once they have finished, a submit is taken, and the oldest finished task is forgotten.
    now += 1_000;
    expect((await submit(99)).status).toBe(200);
    expect(service.held().tasks).toBeLessThanOrEqual(BOUND);
    const poll = (id: string) =>
      fetch(new URL(`/v1/tasks/${id}`, service!.url), {
        headers: { Authorization: 'Bearer demo' },
      });
    expect((await poll(ids[0]!)).status).toBe(404);
    expect((await poll(ids[3]!)).status).toBe(200);
  });

  it('ComfyUI’s, with no key, are refused with its 429 while running ones hold the bound', async () => {
    service = await startDemoService({
      dialect: 'comfyui',
      maxHeldBytes: BOUND,
      durationMs: 600_000,
    });
    const graph = (n: number) => ({
      prompt: {
        '6': { class_type: 'CLIPTextEncode', inputs: { text: longPrompt(n), clip: ['4', 1] } },
        '5': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
        '3': {
          class_type: 'KSampler',
          inputs: { seed: 1, positive: ['6', 0], latent_image: ['5', 0], model: ['4', 0] },
        },
        '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'demo.safetensors' } },
        '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
        '9': { class_type: 'SaveImage', inputs: { images: ['8', 0] } },
      },
    });
    const statuses: number[] = [];
    let one = 0;
    for (let n = 0; n < 8; n += 1) {
      const answer = await fetch(new URL('/prompt', service.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(graph(n)),
      });
      statuses.push(answer.status);
      if (n === 0) one = service.held().tasks;
    }
    // Each task keeps its graph too: taken until past the bound, then refused; the last one
    // taken is the most the bound is passed by.
    const taken = statuses.indexOf(429);
    expect(taken).toBeGreaterThan(0);
    expect(statuses.slice(0, taken).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(taken).every((status) => status === 429)).toBe(true);
    expect(service.held().tasks).toBeLessThanOrEqual(BOUND + one);
  });
});
