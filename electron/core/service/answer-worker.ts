/**
 * The answer worker: a thread of the process that reads service answers (answer-jobs.ts), so that
 * parsing, the profile's reading, the search for the key and the decoding of inline images cost
 * this thread and never the main one, where IPC, the gallery protocol and the window wait. What
 * it sends back is small (the task as the app uses it), but for the bytes of inline images, which
 * are transferred (moved, not copied).
 *
 * Runs from its own bundle (dist-electron/answer-worker.js, beside main.js and the CLI's bundle)
 * and, in tests and `npm run cli`, from source with tsx's loader (answer-reader.ts starts it).
 */
import { randomBytes } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { InlineImage } from '../../../shared/service/inline-token';
import { AnswerJob, statusOutcome } from './answer-jobs';
import { HeldEvents } from './held-reading';
import type { AnswerOutcome, AnswerSpec, FromWorker, ToWorker } from './answer-protocol';

const jobs = new Map<number, AnswerJob | HeldEvents>();

/** The job that reads an answer as `spec` says: a status stream's events, or a JSON answer. */
function jobOf(spec: AnswerSpec): AnswerJob | HeldEvents {
  return spec.kind === 'held' && spec.answer === 'events'
    ? new HeldEvents(spec)
    : new AnswerJob(spec, randomBytes(16).toString('hex'));
}

/** `bytes` over a buffer of their own (a small decoded image may share Node's buffer pool). */
function owned(image: InlineImage): InlineImage {
  const { bytes } = image;
  const alone = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return alone ? image : { ...image, bytes: new Uint8Array(bytes) };
}

/** The outcome with its images' bytes ready to move, and the buffers to move. */
function movable(outcome: AnswerOutcome): { outcome: AnswerOutcome; transfer: ArrayBuffer[] } {
  if (outcome.kind !== 'task' || outcome.task.status !== 'completed') {
    return { outcome, transfer: [] };
  }
  const images = outcome.task.inlineImages;
  if (!images) return { outcome, transfer: [] };
  const moved = Object.fromEntries(Object.entries(images).map(([at, image]) => [at, owned(image)]));
  const transfer = [...new Set(Object.values(moved).map((image) => image.bytes.buffer))];
  return {
    outcome: { kind: 'task', task: { ...outcome.task, inlineImages: moved } },
    transfer: transfer as ArrayBuffer[],
  };
}

function post(id: number, done: AnswerOutcome): void {
  const { outcome, transfer } = movable(done);
  const message: FromWorker = { type: 'done', id, outcome };
  parentPort?.postMessage(message, transfer);
}

function handle(message: ToWorker): void {
  switch (message.type) {
    case 'start':
      jobs.set(message.id, jobOf(message.spec));
      return;
    case 'chunk': {
      const refused = jobs.get(message.id)?.push(message.bytes) ?? null;
      if (refused === null) return;
      jobs.delete(message.id);
      post(message.id, refused);
      return;
    }
    case 'end': {
      const job = jobs.get(message.id);
      jobs.delete(message.id);
      if (job) post(message.id, job.finish());
      return;
    }
    case 'cancel':
      jobs.delete(message.id);
      return;
    case 'status':
      post(message.id, statusOutcome(message.spec));
  }
}

parentPort?.on('message', handle);
parentPort?.postMessage({ type: 'ready' } satisfies FromWorker);
