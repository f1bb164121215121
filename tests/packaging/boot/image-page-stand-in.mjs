/**
 * The image renderer's page for the boot test's Electron stand-in (electron-stand-in.mjs): what
 * Chromium would run in the hidden sandboxed window (electron/image-renderer/page.ts), done with
 * sharp in the test's own Node, so the packed app's image path (its session, its job bytes on
 * the image scheme, the port, the main process's checks of every answer) runs end to end. sharp
 * is the stand-in's, from the repository; the packed app carries no image library.
 *
 * PICTOR_BOOT_IMAGE_PAGE picks how the page behaves:
 * - unset: it works (thumbnail, PNG and SVG jobs; a Content Credentials job is verified by the
 *   packed app's own worker bundle, dist-electron/c2pa-worker.js, in a worker thread: the same
 *   c2pa-rs module the page's worker runs in Chromium, from the packed node_modules);
 * - `fails-to-load`: its page never loads, as in a Chromium that cannot start the renderer.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';

export const PAGE_BEHAVIOUR = process.env['PICTOR_BOOT_IMAGE_PAGE'] ?? 'works';

/**
 * @param {Uint8Array} bytes
 * @param {{ thumbnailSize: number }} job
 */
async function thumbnail(bytes, job) {
  const decoded = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = decoded.info;
  const webp = await sharp(decoded.data, { raw: { width, height, channels } })
    .resize(job.thumbnailSize, job.thumbnailSize, { fit: 'inside', withoutEnlargement: true })
    .webp()
    .toBuffer();
  return { width, height, webp: new Uint8Array(webp) };
}

/**
 * @param {Uint8Array} bytes
 * @param {{ maxSide: number | null }} job
 */
async function png(bytes, job) {
  const side = job.maxSide ?? 16_384;
  const out = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
  return new Uint8Array(out);
}

/**
 * @param {Uint8Array} bytes
 * @param {{ width: number, height: number }} job
 */
async function svg(bytes, job) {
  const out = await sharp(bytes).resize(job.width, job.height, { fit: 'fill' }).png().toBuffer();
  return new Uint8Array(out);
}

/**
 * A verify job's verdict, from a worker running the packed app's c2pa-worker.js (its protocol:
 * core/content-credentials/c2pa-protocol.ts), ended after the one file.
 * @param {Uint8Array} bytes
 * @param {{ id: number, mime: string, trustAnchors: string }} job
 */
function verify(bytes, job) {
  const app = process.env['PICTOR_BOOT_APP'] ?? '/nonexistent';
  const worker = new Worker(join(app, 'dist-electron', 'c2pa-worker.js'), {
    workerData: { trustAnchors: job.trustAnchors },
  });
  return new Promise((resolve) => {
    const done = (/** @type {Record<string, unknown>} */ reply) => {
      void worker.terminate();
      resolve(reply);
    };
    worker.on('error', (error) => done({ type: 'failed', id: job.id, detail: String(error) }));
    worker.on('message', (/** @type {Record<string, unknown>} */ message) => {
      if (message['kind'] === 'ready') worker.postMessage({ id: 1, bytes, mime: job.mime });
      else if (message['kind'] === 'unavailable')
        done({ type: 'failed', id: job.id, detail: String(message['reason']) });
      else done({ type: 'credentials', id: job.id, verdict: message['verdict'] });
    });
  });
}

const ENCODERS = new Map([
  ['png', png],
  ['svg', svg],
]);

/**
 * Answers one job the way the page does: its bytes fetched once from the job's address, served by
 * the handler the app registered for the image scheme on the renderer's session.
 * @param {{ type: string, id: number, url: string }} job
 * @param {(request: Request) => Promise<Response>} serve
 */
async function answer(job, serve) {
  const encode = ENCODERS.get(job.type);
  if (job.type !== 'thumbnail' && job.type !== 'verify' && !encode)
    return { type: 'failed', id: job.id, detail: `The boot's page does not do ${job.type} jobs.` };
  const response = await serve(new Request(job.url));
  if (!response.ok)
    return { type: 'failed', id: job.id, detail: `The job's bytes: HTTP ${response.status}.` };
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (job.type === 'verify') return verify(bytes, /** @type {never} */ (job));
  try {
    if (encode) return { type: 'png', id: job.id, png: await encode(bytes, job) };
    return { type: 'thumbnail', id: job.id, ...(await thumbnail(bytes, job)) };
  } catch (error) {
    return { type: 'undecodable', id: job.id, detail: String(error).slice(0, 200) };
  }
}

/**
 * Runs the page on the port the main process handed over: says it is ready, then answers jobs.
 * @param {import('node:events').EventEmitter & { postMessage(data: unknown): void }} port
 * @param {(scheme: string) => ((request: Request) => Promise<Response>) | undefined} handlerFor
 */
export function runImagePage(port, handlerFor) {
  port.on('message', (/** @type {{ data: { type: string, id: number, url: string } }} */ event) => {
    const job = event.data;
    if (job.type === 'cancel') return;
    const serve = handlerFor(new URL(job.url).protocol.slice(0, -1));
    if (!serve) {
      port.postMessage({ type: 'failed', id: job.id, detail: 'No handler for the job address.' });
      return;
    }
    void answer(job, serve).then((reply) => port.postMessage(reply));
  });
  port.postMessage({ type: 'ready' });
}
