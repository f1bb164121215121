/**
 * The answer worker's life seen from the service client (answer-reader.ts): a worker that hangs
 * is ended at its time limit and one that crashes mid-answer fails that answer with its own
 * sentence (a poll is asked again, a submit's outcome is unknown and it is never sent again);
 * either way the next answer gets a new worker. One that cannot start sends nothing.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerReader } from '../../../../electron/core/service/answer-reader';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { sentence } from '../../../../shared/i18n/sentence';
import { caught, fakeFetch, json } from './fake-fetch';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const credentials = {
  baseUrl: 'https://api.example.com',
  key: 'sk-reader-0123456789',
  keyFingerprint: 'a',
};
const support = (name: string) => new URL(`../../../support/${name}`, import.meta.url);
const readers: AnswerReader[] = [];

function clientWith(reader: AnswerReader) {
  readers.push(reader);
  const fake = fakeFetch(json(200, { id: 'task-1', status: 'completed', output: { data: [] } }));
  return { client: new ServiceClient({ fetch: fake.fetch, answers: reader }), calls: fake.calls };
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.dispose()));
  delete process.env['PICTOR_TEST_ANSWER_CRASHED'];
});

describe('the answer worker', () => {
  it('that never answers is ended at its time limit; the next answer gets a new one', async () => {
    const reader = new AnswerReader({ workerUrl: support('stuck-answer-worker.ts'), workMs: 300 });
    const { client, calls } = clientWith(reader);
    // Each ends at its 300 ms limit; without the limit neither would, and the test's own time
    // limit would end it (no clock read here: a loaded machine cannot fail it).
    for (const attempt of [1, 2]) {
      const error = await refusal(client.getTask(credentials, 'task-1'));
      expect(error.kind, `attempt ${attempt}`).toBe('protocol');
      expect(error.sentence).toEqual(sentence('error.service.answerReaderStoppedQuery'));
      expect(error.detail).toMatch(/did not finish reading an answer within 300 ms/);
      expect(error.mayHaveReachedService).toBe(true);
    }
    expect(calls).toHaveLength(2);
  });

  it('that crashes mid-answer fails that answer; a new worker reads the next one', async () => {
    const dir = await tempFolder('answer-crash');
    try {
      process.env['PICTOR_TEST_ANSWER_CRASHED'] = join(dir, 'crashed');
      const reader = new AnswerReader({ workerUrl: support('crash-once-answer-worker.ts') });
      const { client } = clientWith(reader);
      const error = await refusal(client.getTask(credentials, 'task-1'));
      expect(error.sentence).toEqual(sentence('error.service.answerReaderStoppedQuery'));
      expect(error.detail).toMatch(/ended \(exit code 3\)/);
      await expect(client.getTask(credentials, 'task-1')).resolves.toMatchObject({
        status: 'completed',
      });
    } finally {
      await removeFolder(dir);
    }
  });

  it('that crashes reading a submit’s answer leaves its outcome unknown', async () => {
    const dir = await tempFolder('answer-crash');
    try {
      process.env['PICTOR_TEST_ANSWER_CRASHED'] = join(dir, 'crashed');
      const reader = new AnswerReader({ workerUrl: support('crash-once-answer-worker.ts') });
      const { client } = clientWith(reader);
      const error = await refusal(client.submit(credentials, { prompt: 'a cat' }));
      expect(error).toMatchObject({ kind: 'protocol', mayHaveReachedService: true });
      expect(error.sentence).toEqual(sentence('error.service.answerReaderStoppedSubmit'));
    } finally {
      await removeFolder(dir);
    }
  });

  it('that cannot start: nothing is sent', async () => {
    const reader = new AnswerReader({ workerUrl: support('no-such-answer-worker.ts') });
    const { client, calls } = clientWith(reader);
    const error = await refusal(client.submit(credentials, { prompt: 'a cat' }));
    expect(error).toMatchObject({ kind: 'protocol', mayHaveReachedService: false });
    expect(error.sentence).toEqual(sentence('error.service.answerReaderStoppedSubmit'));
    expect(calls).toHaveLength(0);
  });

  it('moves a piece that shares its memory as a copy: Node’s pool, a transport’s buffer', async () => {
    const text = JSON.stringify({ id: 'task-1', status: 'completed', output: { data: [] } });
    // A transport's buffer of which the piece is a view (a socket read), and one of Node's pool
    // (a small Buffer, as a stream's read() gives pieces joined): neither may be taken.
    const backing = Buffer.alloc(text.length + 64);
    backing.write(text, 16);
    const pieces = {
      'a view of a transport’s buffer': () => backing.subarray(16, 16 + text.length),
      'a piece of Node’s pool': () => Buffer.from(text),
    };
    for (const [what, piece] of Object.entries(pieces)) {
      const fake = fakeFetch(() => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(piece());
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      });
      const reader = new AnswerReader();
      readers.push(reader);
      const client = new ServiceClient({ fetch: fake.fetch, answers: reader });
      await expect(client.getTask(credentials, 'task-1'), what).resolves.toMatchObject({
        status: 'completed',
      });
    }
    expect(backing.buffer.byteLength).toBeGreaterThan(0);
    expect(backing.subarray(16, 16 + text.length).toString()).toBe(text);
  });

  it('stops reading when the caller aborts, with the caller’s reason', async () => {
    const reader = new AnswerReader({ workerUrl: support('stuck-answer-worker.ts') });
    readers.push(reader);
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const answer = json(200, { id: 'task-1', status: 'completed', output: { data: [] } });
    const fake = fakeFetch((url, init) => {
      // The answer is on its way to a worker stuck on it: only the abort can end the wait.
      setImmediate(() => controller.abort(reason));
      return answer(url, init);
    });
    const client = new ServiceClient({ fetch: fake.fetch, answers: reader });
    await expect(client.getTask(credentials, 'task-1', controller.signal)).rejects.toBe(reason);
    expect(fake.calls).toHaveLength(1);
  });
});
