/**
 * The image worker: every decode, thumbnail, conversion and SVG render Pictor does runs here, in
 * a worker thread of the main process, on sharp's WebAssembly build.
 *
 * Why WebAssembly, in every build: on Linux, Electron's binary links the system GLib and sharp's
 * native libvips carries its own; in one process they clash (sharp's install docs, "Electron and
 * Linux"; electron/electron#46323). The WebAssembly build has no native code at all, so it also
 * cannot miss its platform package or need a newer CPU, and every packaged target runs the same
 * image code. Native sharp, when installed (a devDependency for tests and icons), is refused
 * below before sharp is loaded, so this thread can never pick it. docs/PERFORMANCE.md has the
 * measurement that chose this ("Image pipeline").
 *
 * Runs from its own bundle (dist-electron/image-worker.js) and, in tests and `npm run cli`, from
 * source under Node's type stripping: imports carry their `.ts` extension and types only.
 */
import { readFile } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type sharpModule from 'sharp';
import type { CheckResult, ImageHeader, ImageRequest, WorkerMessage } from './image-protocol.ts';
import { storedPng } from './png-stored.ts';

/** Any sharp binary but the WebAssembly one: `@img/sharp-<os>-<cpu>/sharp.node` or a local build. */
const NATIVE_SHARP = /(^@img\/sharp-|\/sharp-)(?!wasm32)[\w.-]+(\/sharp\.node|\.node)$/;

function refuseNativeSharp(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (NATIVE_SHARP.test(specifier)) {
        throw Object.assign(new Error(`Pictor uses sharp's WebAssembly build, not ${specifier}.`), {
          code: 'MODULE_NOT_FOUND',
        });
      }
      return nextResolve(specifier, context);
    },
  });
}

type Sharp = typeof sharpModule;

async function loadSharp(): Promise<Sharp> {
  refuseNativeSharp();
  const sharp = (await import('sharp')).default;
  if (!('emscripten' in sharp.versions))
    throw new Error('sharp did not load its WebAssembly build.');
  // Every input is a buffer and every job runs once: nothing is worth caching.
  sharp.cache(false);
  return sharp;
}

async function readHeader(sharp: Sharp, bytes: Uint8Array): Promise<ImageHeader> {
  // The header alone: the caller checks the pixel limit, so it can tell the user the size.
  const metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata();
  return {
    format: metadata.format,
    width: metadata.width,
    height: metadata.height,
    orientedWidth: metadata.autoOrient.width,
    orientedHeight: metadata.autoOrient.height,
  };
}

/**
 * One WebAssembly job at a time: sharp runs each on a thread of its own, so the worker's thread is
 * free meanwhile to prepare the next job (read it, inflate its PNG stream), and two jobs in flight
 * overlap on two cores. Running two in WebAssembly at once measured no faster and holds two
 * images in its memory, which never shrinks.
 */
let wasmTurn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const result = wasmTurn.then(work);
  wasmTurn = result.catch(() => undefined);
  return result;
}

/**
 * The file's bytes as sharp gets them. A PNG is re-packed (png-stored.ts) before its WebAssembly
 * turn; the re-packed file is intact by construction, so its decode skips the CRC and Adler-32
 * checks already made. Anything else keeps every check. Returning drops the original bytes of a
 * re-packed PNG, which the job then no longer holds while it waits for its turn.
 */
async function prepare(
  request: Extract<ImageRequest, { op: 'check' }>,
): Promise<{ input: Buffer; failOn: 'none' | 'error' }> {
  const bytes = await readFile(request.file);
  const stored = request.kind === 'png' ? storedPng(bytes, request.maxPixels) : null;
  return stored ? { input: stored, failOn: 'none' } : { input: bytes, failOn: 'error' };
}

async function check(
  sharp: Sharp,
  request: Extract<ImageRequest, { op: 'check' }>,
): Promise<CheckResult> {
  const { input, failOn } = await prepare(request);
  return inTurn(async () => {
    let header: ImageHeader;
    try {
      header = await readHeader(sharp, input);
    } catch {
      return { header: null };
    }
    const { width, height, format } = header;
    if (format !== request.kind || !width || !height || width * height > request.maxPixels) {
      return { header };
    }
    try {
      const thumbnail = await sharp(input, { limitInputPixels: request.maxPixels, failOn })
        .autoOrient()
        .resize({
          width: request.thumbnailSize,
          height: request.thumbnailSize,
          fit: 'inside',
          withoutEnlargement: true,
        })
        // Effort 2 of 6: a thumbnail a few bytes larger, made in about half the time.
        .webp({ quality: 80, effort: 2 })
        .toBuffer();
      return { header, thumbnail };
    } catch {
      return { header, decodeFailed: true };
    }
  });
}

async function run(sharp: Sharp, request: ImageRequest): Promise<unknown> {
  if (request.op === 'check') return check(sharp, request);
  return inTurn(() => convert(sharp, request));
}

async function convert(
  sharp: Sharp,
  request: Exclude<ImageRequest, { op: 'check' }>,
): Promise<unknown> {
  switch (request.op) {
    case 'header':
      return readHeader(sharp, request.bytes);
    case 'png':
      return sharp(request.bytes, { failOn: 'error' }).png().toBuffer();
    case 'icon':
      return sharp(request.bytes, { failOn: 'error' })
        .resize(request.size, request.size, { fit: 'inside' })
        .png()
        .toBuffer();
    case 'svg':
      return sharp(Buffer.from(request.svg), { density: 72 })
        .resize(request.width, request.height, { fit: 'fill' })
        .png({ compressionLevel: 1 })
        .toBuffer();
  }
}

/**
 * A copy of `bytes` in memory of its own. sharp's WebAssembly build hands out buffers that are
 * views of its shared WebAssembly memory: posted as they are, the main thread would read them
 * after the next job had reused that memory (seen: a PNG turned into another image's pixels).
 */
function ownCopy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/** The job's value with every byte array in memory of its own, and the buffers to transfer. */
function detached(value: unknown): { value: unknown; transfer: ArrayBuffer[] } {
  if (value instanceof Uint8Array) {
    const copy = ownCopy(value);
    return { value: copy, transfer: [copy.buffer] };
  }
  if (value && typeof value === 'object' && 'thumbnail' in value) {
    const result = value as CheckResult;
    if (!result.thumbnail) return { value, transfer: [] };
    const thumbnail = ownCopy(result.thumbnail);
    return { value: { ...result, thumbnail }, transfer: [thumbnail.buffer] };
  }
  return { value, transfer: [] };
}

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

async function serve(): Promise<void> {
  let sharp: Sharp;
  try {
    sharp = await loadSharp();
  } catch (error) {
    send({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
    return;
  }
  parentPort?.on('message', (message: { id: number; request: ImageRequest }) => {
    run(sharp, message.request).then(
      (result) => {
        const { value, transfer } = detached(result);
        send({ type: 'done', id: message.id, value }, transfer);
      },
      (error: unknown) =>
        send({
          type: 'error',
          id: message.id,
          message: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  send({
    type: 'ready',
    library: `sharp ${sharp.versions.sharp} (WebAssembly, libvips ${sharp.versions.vips})`,
  });
}

void serve();
