/**
 * The image workers (electron/core/images): the real worker runs sharp's WebAssembly build even
 * though native sharp is installed here; a worker whose image code cannot load makes every job
 * fail with ImagesUnavailableError and tells its listeners once; a worker that dies or hangs fails
 * only its own job; idle workers end. Stand-in workers are real worker threads, written as files.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deflateSync, inflateSync } from 'node:zlib';
import {
  checkImageFile,
  iconPng,
  readImageHeader,
  renderSvgPng,
} from '../../../../electron/core/images/image-ops';
import {
  ImagesUnavailableError,
  ImageWorkerError,
  ImageWorkers,
} from '../../../../electron/core/images/image-workers';
import { idatOf, withIdat } from './png-chunks';

let dir = '';
const pools: ImageWorkers[] = [];

function pool(options: ConstructorParameters<typeof ImageWorkers>[0] = {}): ImageWorkers {
  const created = new ImageWorkers(options);
  pools.push(created);
  return created;
}

/** A stand-in worker: `onRequest` is the body of the message handler (`message`, `reply`). */
async function standIn(name: string, source: string): Promise<URL> {
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, `import { parentPort } from 'node:worker_threads';\n${source}\n`);
  return pathToFileURL(file);
}

const READY = "parentPort.postMessage({ type: 'ready', library: 'stand-in' });";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-image-workers-'));
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((each) => each.close()));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the real image worker', () => {
  it('runs sharp’s WebAssembly build although native sharp is installed in this process', async () => {
    expect('emscripten' in sharp.versions).toBe(false); // the tests' own sharp is native
    const images = pool();
    const png = await renderSvgPng(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#f00"/></svg>',
      { width: 40, height: 30 },
      images,
    );
    expect(images.status()).toMatchObject({ state: 'ready' });
    const status = images.status();
    expect(status.state === 'ready' && status.library).toMatch(/WebAssembly/);
    const stats = await sharp(png).stats();
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 40, height: 30 });
    expect(stats.channels[0]?.mean).toBe(255);
    expect(await readImageHeader(png, images)).toMatchObject({ format: 'png', width: 40 });
  });

  it('fails a job on a damaged image with an error, and keeps working', async () => {
    const images = pool();
    await expect(readImageHeader(Buffer.from('not an image at all'), images)).rejects.toThrow();
    const png = await sharp({
      create: { width: 5, height: 4, channels: 3, background: '#00f' },
    })
      .png()
      .toBuffer();
    expect(await readImageHeader(png, images)).toMatchObject({ width: 5, height: 4 });
  });
});

describe('checking a PNG file (header, full decode, thumbnail)', () => {
  const limits = { maxPixels: 10_000_000, thumbnailSize: 64 };
  const side = 120;
  let png: Buffer;

  async function check(bytes: Buffer, images: ImageWorkers) {
    const file = join(dir, `check-${Math.random().toString(36).slice(2)}.png`);
    await writeFile(file, bytes);
    return checkImageFile(file, 'png', limits, images);
  }

  beforeAll(async () => {
    const pixels = Buffer.alloc(side * side * 3);
    for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7919) % 251;
    png = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .png({ adaptiveFiltering: true })
      .toBuffer();
  });

  it('thumbnails an intact PNG (re-packed, decoded without repeated checks) as native sharp does', async () => {
    const images = pool();
    const result = await check(png, images);
    expect(result).toMatchObject({ header: { format: 'png', width: side, height: side } });
    const thumbnail = Buffer.from(result.thumbnail ?? new Uint8Array());
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 64 });
    // Same picture: the mean of the first channel within 2 of native sharp's own thumbnail.
    const mean = async (bytes: Uint8Array) => (await sharp(bytes).stats()).channels[0]?.mean ?? 0;
    expect(
      Math.abs(
        (await mean(thumbnail)) - (await mean(await sharp(png).resize(64).webp().toBuffer())),
      ),
    ).toBeLessThan(2);
  });

  const damages: [string, (png: Buffer) => Buffer][] = [
    [
      'a scanline with filter type 9',
      (p) => {
        const raw = inflateSync(idatOf(p));
        raw[(1 + side * 3) * 50] = 9;
        return withIdat(p, deflateSync(raw));
      },
    ],
    [
      'a stream whose Adler-32 is wrong',
      (p) => {
        const stream = Buffer.from(idatOf(p));
        stream[stream.length - 2] = (stream[stream.length - 2] ?? 0) ^ 0x40;
        return withIdat(p, stream);
      },
    ],
    [
      'a stream cut short',
      (p) => {
        const raw = inflateSync(idatOf(p));
        return withIdat(p, deflateSync(raw.subarray(0, raw.length >> 1)));
      },
    ],
    [
      'a pixel chunk whose CRC is wrong',
      (p) => {
        const copy = Buffer.from(p);
        const at = copy.indexOf('IDAT', 8, 'latin1') + 40;
        copy[at] = (copy[at] ?? 0) ^ 0xff;
        return copy;
      },
    ],
  ];

  it.each(damages)('finds %s damaged, and goes on with the next file', async (_name, damage) => {
    const images = pool();
    const result = await check(damage(png), images);
    expect(result.thumbnail).toBeUndefined();
    expect(result.header === null || result.decodeFailed === true).toBe(true);
    expect((await check(png, images)).thumbnail).toBeDefined();
  });
});

describe('the bytes a job returns', () => {
  it('are the job’s own, not a view of memory the next job reuses', async () => {
    // sharp's WebAssembly build returns views of its shared WebAssembly memory; posted as they
    // are, a result is read after that memory was freed and reused (seen: a demo PNG served as
    // another image's pixels). Each result must be in memory of its own.
    const images = pool();
    const jobs = Array.from({ length: 40 }, (_, n) => {
      const side = 24 + (n % 7) * 5;
      const red = (n * 37) % 256;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><rect width="${side}" height="${side}" fill="rgb(${red},0,0)"/></svg>`;
      return { side, red, png: renderSvgPng(svg, { width: side, height: side }, images) };
    });
    // Other work between them, as downloads are checked between the demo's renders.
    const noise = await sharp(Buffer.alloc(300 * 300 * 3, 7), {
      raw: { width: 300, height: 300, channels: 3 },
    })
      .png()
      .toBuffer();
    const between = Array.from({ length: 10 }, () => iconPng(noise, 64, images));
    // Read only once every job has run, as a response body is read after later jobs ran.
    const pngs = await Promise.all(jobs.map((job) => job.png));
    await Promise.all(between);
    for (const [n, job] of jobs.entries()) {
      const png = pngs[n] ?? Buffer.alloc(0);
      expect(png.buffer).not.toBeInstanceOf(SharedArrayBuffer);
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([job.side, job.side]);
      expect(data[0]).toBe(job.red);
    }
  });
});

describe('when the image code cannot load', () => {
  it.each([
    ['reports that it failed', "parentPort.postMessage({ type: 'failed', reason: 'no wasm' });"],
    ['throws while loading', "throw new Error('no wasm');"],
    ['exits while loading', 'process.exit(7);'],
  ])('every job fails with ImagesUnavailableError when the worker %s', async (name, source) => {
    const images = pool({ workerUrl: await standIn(name.replaceAll(' ', '-'), source) });
    const told = vi.fn();
    images.onUnavailable(told);
    const first = images.run({ op: 'header', bytes: new Uint8Array(1) });
    const second = images.run({ op: 'header', bytes: new Uint8Array(1) });
    await expect(first).rejects.toBeInstanceOf(ImagesUnavailableError);
    await expect(second).rejects.toBeInstanceOf(ImagesUnavailableError);
    await expect(images.run({ op: 'png', bytes: new Uint8Array(1) })).rejects.toBeInstanceOf(
      ImagesUnavailableError,
    );
    expect(told).toHaveBeenCalledTimes(1);
    expect(images.status()).toMatchObject({ state: 'unavailable' });
    // A listener added later hears it too.
    const late = vi.fn();
    images.onUnavailable(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('fails when the worker script does not exist at all', async () => {
    const images = pool({ workerUrl: pathToFileURL(join(dir, 'missing-worker.mjs')) });
    await expect(images.run({ op: 'header', bytes: new Uint8Array(1) })).rejects.toBeInstanceOf(
      ImagesUnavailableError,
    );
  });
});

describe('a worker that dies or hangs', () => {
  it('fails only the job it was running; the next job gets a new worker', async () => {
    const url = await standIn(
      'dies-on-first',
      `${READY}
       parentPort.on('message', ({ id, request }) => {
         if (request.op === 'png') process.exit(3);
         parentPort.postMessage({ type: 'done', id, value: request.op });
       });`,
    );
    const images = pool({ workerUrl: url, size: 1 });
    await expect(images.run({ op: 'png', bytes: new Uint8Array(1) })).rejects.toBeInstanceOf(
      ImageWorkerError,
    );
    expect(await images.run({ op: 'header', bytes: new Uint8Array(1) })).toBe('header');
    expect(images.status()).toMatchObject({ state: 'ready' });
  });

  it('ends a worker whose job overruns its time, and answers the next job', async () => {
    const url = await standIn(
      'hangs-on-png',
      `${READY}
       parentPort.on('message', ({ id, request }) => {
         if (request.op === 'png') return;
         parentPort.postMessage({ type: 'done', id, value: 'answered' });
       });`,
    );
    const images = pool({ workerUrl: url, size: 1, jobTimeoutMs: 300 });
    const hung = images.run({ op: 'png', bytes: new Uint8Array(1) });
    const queued = images.run({ op: 'header', bytes: new Uint8Array(1) });
    await expect(hung).rejects.toThrow(/longer than 0.3 s/);
    await expect(hung).rejects.toMatchObject({ why: 'timeout' });
    expect(await queued).toBe('answered');
  });

  it('passes a job’s own error back as an error', async () => {
    const url = await standIn(
      'job-error',
      `${READY}
       parentPort.on('message', ({ id }) => parentPort.postMessage({ type: 'error', id, message: 'bad input' }));`,
    );
    const images = pool({ workerUrl: url });
    await expect(images.run({ op: 'png', bytes: new Uint8Array(1) })).rejects.toThrow('bad input');
  });
});

describe('parallel and idle workers', () => {
  it('runs up to `size` jobs at once, each in its own thread', async () => {
    // Each job answers with its worker's thread id once two jobs have arrived anywhere: with one
    // thread the first job would wait for ever (and the test time out).
    const url = await standIn(
      'parallel',
      `import { threadId } from 'node:worker_threads';
       ${READY}
       parentPort.on('message', ({ id, request }) => {
         const counter = new Int32Array(request.bytes.buffer);
         Atomics.add(counter, 0, 1);
         Atomics.notify(counter, 0);
         while (Atomics.load(counter, 0) < 2) Atomics.wait(counter, 0, 1, 50);
         parentPort.postMessage({ type: 'done', id, value: threadId });
       });`,
    );
    const images = pool({ workerUrl: url, size: 2 });
    const counter = new Uint8Array(new SharedArrayBuffer(4));
    const ids = await Promise.all([
      images.run({ op: 'png', bytes: counter }),
      images.run({ op: 'png', bytes: counter }),
    ]);
    expect(new Set(ids).size).toBe(2);
  });

  it('hands one worker two jobs at once, so it can prepare one while the other runs', async () => {
    // The stand-in answers only once it holds two jobs: with one job per worker it never would.
    const url = await standIn(
      'holds-two',
      `${READY}
       const held = [];
       parentPort.on('message', ({ id }) => {
         held.push(id);
         if (held.length === 2) for (const each of held) parentPort.postMessage({ type: 'done', id: each, value: held.length });
       });`,
    );
    const images = pool({ workerUrl: url, size: 1 });
    const answers = await Promise.all([
      images.run({ op: 'png', bytes: new Uint8Array(1) }),
      images.run({ op: 'png', bytes: new Uint8Array(1) }),
    ]);
    expect(answers).toEqual([2, 2]);
    expect(images.liveWorkers()).toBe(1);
  });

  it('when a worker holding two jobs dies, runs each again alone: only the one that kills it fails', async () => {
    // 'png' ends the worker shortly after it arrives; 'header' never answers in a worker that has
    // seen a 'png' (it dies with it), and answers at once in a worker of its own.
    const url = await standIn(
      'dies-holding-two',
      `${READY}
       let sawPng = false;
       parentPort.on('message', ({ id, request }) => {
         if (request.op === 'png') { sawPng = true; setTimeout(() => process.exit(3), 20); return; }
         if (!sawPng) parentPort.postMessage({ type: 'done', id, value: 'answered' });
       });`,
    );
    const images = pool({ workerUrl: url, size: 1 });
    const killer = images.run({ op: 'png', bytes: new Uint8Array(1) });
    const bystander = images.run({ op: 'header', bytes: new Uint8Array(1) });
    await expect(killer).rejects.toBeInstanceOf(ImageWorkerError);
    await expect(killer).rejects.toThrow(/exit code 3/);
    await expect(killer).rejects.toMatchObject({ why: 'crashed' });
    expect(await bystander).toBe('answered');
  });

  it('when a held job overruns, fails it alone and answers the job beside it', async () => {
    const url = await standIn(
      'hangs-beside',
      `${READY}
       let sawPng = false;
       parentPort.on('message', ({ id, request }) => {
         if (request.op === 'png') { sawPng = true; return; }
         if (!sawPng) parentPort.postMessage({ type: 'done', id, value: 'answered' });
       });`,
    );
    const images = pool({ workerUrl: url, size: 1, jobTimeoutMs: 300 });
    const hung = images.run({ op: 'png', bytes: new Uint8Array(1) });
    const beside = images.run({ op: 'header', bytes: new Uint8Array(1) });
    await expect(hung).rejects.toThrow(/longer than 0.3 s/);
    expect(await beside).toBe('answered');
  });

  it('fails every held and queued job when closed, and starts no worker after', async () => {
    const url = await standIn('never-answers', `${READY}\n parentPort.on('message', () => {});`);
    const images = pool({ workerUrl: url, size: 1 });
    const jobs = [1, 2, 3].map(() => images.run({ op: 'png', bytes: new Uint8Array(1) }));
    await vi.waitFor(() => expect(images.status()).toMatchObject({ state: 'ready' }));
    const settled = Promise.allSettled(jobs);
    await images.close();
    for (const outcome of await settled) {
      expect(outcome).toMatchObject({
        status: 'rejected',
        reason: { message: 'Image work was stopped.' },
      });
    }
    expect(images.liveWorkers()).toBe(0);
  });

  it('ends a worker that stays idle, and starts one again for the next job', async () => {
    const url = await standIn(
      'idle',
      `${READY}
       parentPort.on('message', ({ id }) => parentPort.postMessage({ type: 'done', id, value: 'ok' }));`,
    );
    const images = pool({ workerUrl: url, idleMs: 50 });
    expect(await images.run({ op: 'png', bytes: new Uint8Array(1) })).toBe('ok');
    expect(images.liveWorkers()).toBe(1);
    await vi.waitFor(() => expect(images.liveWorkers()).toBe(0), { timeout: 5_000 });
    expect(await images.run({ op: 'png', bytes: new Uint8Array(1) })).toBe('ok');
  });
});
