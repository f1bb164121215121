/**
 * The Content Credentials worker: reads an image's C2PA manifest store with @contentauth/c2pa-wasm
 * (c2pa-rs compiled to WebAssembly) and validates it, one file at a time, in a worker thread that
 * the main side ends when it overruns its time (c2pa-verifier.ts). Hostile manifests are parsed
 * here, never next to the key.
 *
 * Nothing here reaches the network: remote manifests and OCSP are off in the reader's settings
 * (shared/content-credentials/c2pa-read.ts, which the sandboxed image renderer's page uses too),
 * and `fetch` (the library imports it for those) is replaced by a refusal before it loads.
 *
 * Runs from its own bundle (dist-electron/c2pa-worker.js) and, in tests and `npm run cli`, from
 * source under Node's type stripping: imports carry their `.ts` extension.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import {
  readCredentials,
  readerSettings,
  type C2pa,
} from '../../../shared/content-credentials/c2pa-read.ts';
import type { C2paMessage, C2paRequest, C2paWorkerData } from './c2pa-protocol.ts';

const data = workerData as C2paWorkerData;
const post = (message: C2paMessage) => parentPort?.postMessage(message);

async function load(): Promise<C2pa> {
  globalThis.fetch = () => Promise.reject(new Error('Pictor verifies without the network.'));
  const c2pa = await import('@contentauth/c2pa-wasm');
  const require = createRequire(import.meta.url);
  c2pa.initSync({ module: await readFile(require.resolve('@contentauth/c2pa-wasm/c2pa.wasm')) });
  return c2pa;
}

const settings = readerSettings(data.trustAnchors);

/** The bytes come from the main side, read from the file it opened inside its folder. */
async function verify(c2pa: C2pa, request: C2paRequest): Promise<C2paMessage> {
  return {
    kind: 'verdict',
    id: request.id,
    ...(await readCredentials(c2pa, request.mime, request.bytes, settings)),
  };
}

async function main(): Promise<void> {
  let c2pa: C2pa;
  try {
    c2pa = await load();
  } catch (error) {
    post({ kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) });
    return;
  }
  // One file at a time: the library is single-threaded, and a queue keeps memory to one file.
  let turn: Promise<unknown> = Promise.resolve();
  parentPort?.on('message', (request: C2paRequest) => {
    turn = turn.then(async () => post(await verify(c2pa, request)));
  });
  post({ kind: 'ready' });
}

void main();
