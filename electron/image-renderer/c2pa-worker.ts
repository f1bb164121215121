/**
 * The image page's Content Credentials worker: reads one file's C2PA manifest store with
 * @contentauth/c2pa-wasm and validates it (shared/content-credentials/c2pa-read.ts, as the Node
 * hosts' worker thread does), one job at a time, given by the page (page.ts), which ends the
 * worker when its job is cancelled (it overran its time) and replaces it after a trap.
 *
 * The WebAssembly module is fetched from the page's own folder and compiled here: the page's
 * policy allows that and nothing more ('wasm-unsafe-eval', app/protocol/csp.ts). Nothing here
 * reaches the network: remote manifests and OCSP are off in the reader's settings, and the
 * page's session and policy let it fetch only its own files and its jobs' one-time addresses.
 */
import * as c2paLibrary from '@contentauth/c2pa-wasm';
import {
  readCredentials,
  readerSettings,
  type C2pa,
  type C2paRead,
} from '../../shared/content-credentials/c2pa-read';
import {
  PAGE_C2PA_WASM,
  type PageAnswer,
  type VerifyJob,
} from '../../shared/image-renderer/protocol';
import { SourceTooLargeError, readSourceBytes } from './read-source';

/** What the worker posts to the page. */
export interface C2paWorkerReply {
  readonly answer: PageAnswer;
  /** The bytes of the images it has read. */
  readonly heldBytes: number;
  /** The worker is not to be used again (its WebAssembly code trapped, or it did not load). */
  readonly retire: boolean;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<VerifyJob>) => void) | null;
  postMessage(message: C2paWorkerReply): void;
}

const scope = self as unknown as WorkerScope;
const WASM_URL = new URL(`./${PAGE_C2PA_WASM}`, import.meta.url);
let library: Promise<C2pa> | null = null;
let heldBytes = 0;

async function load(): Promise<C2pa> {
  const response = await fetch(WASM_URL, { credentials: 'omit', redirect: 'error' });
  if (!response.ok) throw new Error(`The module was refused (${response.status}).`);
  const module = await WebAssembly.compile(await response.arrayBuffer());
  c2paLibrary.initSync({ module });
  return c2paLibrary;
}

/** The job's bytes, or null when the file is longer than the job allows (`unreadable`). */
async function bytesOf(job: VerifyJob): Promise<Uint8Array | null> {
  try {
    const bytes = await readSourceBytes(job.url, job.maxBytes);
    heldBytes += bytes.length;
    return bytes;
  } catch (error) {
    if (error instanceof SourceTooLargeError) return null;
    throw error;
  }
}

async function verify(job: VerifyJob): Promise<C2paWorkerReply> {
  let c2pa: C2pa;
  try {
    library ??= load();
    c2pa = await library;
  } catch {
    const detail = 'The Content Credentials library did not load.';
    return { answer: { type: 'failed', id: job.id, detail }, heldBytes, retire: true };
  }
  let read: C2paRead;
  try {
    const bytes = await bytesOf(job);
    read = bytes
      ? await readCredentials(c2pa, job.mime, bytes, readerSettings(job.trustAnchors))
      : { verdict: { state: 'unreadable' }, trapped: false };
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'The bytes did not arrive.';
    return { answer: { type: 'failed', id: job.id, detail }, heldBytes, retire: false };
  }
  const answer: PageAnswer = { type: 'credentials', id: job.id, verdict: read.verdict };
  return { answer, heldBytes, retire: read.trapped };
}

scope.onmessage = (event) => {
  void verify(event.data).then((reply) => scope.postMessage(reply));
};
