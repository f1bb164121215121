/**
 * At the parser: a task id or an image URL that carries the key is refused
 * (never returned), a failed task's error keeps its words without the key, a deep error body is
 * not mistaken for one carrying the key, and a completed task keeps MAX_IMAGES_PER_TASK images.
 */
import { describe, expect, it } from 'vitest';
import { sentence } from '../../../../shared/i18n/sentence';
import {
  KEY_IN_IMAGE_URL,
  KEY_IN_IMAGE_URL_SENTENCE,
} from '../../../../electron/core/service/answer-parsing';
import { parseSubmitAnswer, parseTaskAnswer } from '../../../support/answer-parsers';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { submitFailure } from '../../../../electron/core/engine/task-transitions';
import { newTaskRecord } from '../../../../shared/domain/task-record';
import { MAX_URL_CHARS } from '../../../../shared/domain/limits';
import { MAX_IMAGES_PER_TASK } from '../../../../shared/domain/limits';
import { MAX_ANSWER_ENTRIES } from '../../../../electron/core/service/answer-limits';

const KEY = 'sk-refusal-Qw3rTy0123456789';
const b64 = (text: string) => Buffer.from(text).toString('base64');

function refusal(text: string): ServiceError {
  try {
    parseSubmitAnswer(text, KEY);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('accepted');
}

describe('parseSubmitAnswer', () => {
  it.each([
    ['raw', `{"id":"task-${KEY}"}`],
    ['base64 of Bearer <key>', `{"id":"${b64(`Bearer ${KEY}`)}"}`],
    ['split with the next field', `{"id":"t-${KEY.slice(0, 14)}","object":"${KEY.slice(14)}"}`],
    [
      '\\u escapes',
      `{"id":"${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
    ],
  ])('refuses a task id carrying the key (%s), as a hostile answer', (_, body) => {
    const error = refusal(body);
    expect(error.message).toMatch(
      /^The service sent back a task id that contains your API key, so Pictor did not keep it\. The task may have been created; Pictor does not send it again on its own\./,
    );
    expect(error).toMatchObject({
      kind: 'protocol',
      mayHaveReachedService: true,
      refusedAnswer: true,
    });
    expect(`${error.message} ${error.detail}`).not.toContain(KEY.slice(0, 12));
    // The engine records it as a submit whose outcome is unknown, in the refusal's own words.
    const record = submitFailure(
      newTaskRecord(
        {
          localId: 'l',
          taskId: null,
          origin: 'submitted',
          endpoint: 'e',
          account: 'a',
          request: { prompt: 'p' },
        },
        1,
      ),
      error,
      2,
    );
    expect(record.status).toBe('submit_unknown');
    expect(record.taskId).toBeNull();
    expect(record.error?.message).toBe(error.message);
  });

  it('keeps an ordinary id, and one beside a field that only looks like the key', () => {
    expect(parseSubmitAnswer('{"id":"task-123","object":"image.task"}', KEY)).toEqual({
      id: 'task-123',
    });
    expect(parseSubmitAnswer(`{"id":"task-9","note":"${KEY.slice(0, 11)}"}`, KEY)).toEqual({
      id: 'task-9',
    });
  });
});

describe('parseTaskAnswer', () => {
  it('refuses each image URL carrying the key, keeps the others', () => {
    const body = JSON.stringify({
      status: 'completed',
      output: {
        data: [
          { url: `https://cdn.example/a.png?sig=${encodeURIComponent(b64(KEY))}` },
          { url: 'https://cdn.example/b.png' },
          { url: `https://cdn.example/c.png?k=${Buffer.from(KEY).toString('hex')}` },
        ],
      },
    });
    expect(parseTaskAnswer(body, KEY)).toEqual({
      status: 'completed',
      imageUrls: [null, 'https://cdn.example/b.png', null],
      refusedImages: { 0: KEY_IN_IMAGE_URL, 2: KEY_IN_IMAGE_URL },
      refusedImageSentences: { 0: KEY_IN_IMAGE_URL_SENTENCE, 2: KEY_IN_IMAGE_URL_SENTENCE },
    });
  });

  it('keeps a failed task’s words without the key, and says nothing of a key that is not there', () => {
    const failed = (error: unknown) => JSON.stringify({ status: 'failed', error });
    expect(parseTaskAnswer(failed({ message: `Refused for ${KEY}`, code: 'policy' }), KEY)).toEqual(
      {
        status: 'failed',
        message: 'Refused for [redacted] (policy)',
      },
    );
    for (const depth of [1, 100, 10_000]) {
      const deep = `{"status":"failed","error":${'{"error":'.repeat(depth)}{"message":"quota"}${'}'.repeat(depth)}}`;
      const task = parseTaskAnswer(deep, KEY);
      expect(task.status).toBe('failed');
      expect(task.status === 'failed' && task.message, `depth ${depth}`).not.toMatch(/API key/);
    }
  });

  it(`keeps the first ${MAX_IMAGES_PER_TASK} of ${MAX_ANSWER_ENTRIES} images, with a notice; refuses an overlong URL`, () => {
    const data = Array.from({ length: MAX_ANSWER_ENTRIES }, (_, i) => ({
      url: `https://cdn.example/${i}.png`,
    }));
    data[1] = { url: `https://cdn.example/${'x'.repeat(MAX_URL_CHARS)}.png` };
    const task = parseTaskAnswer(JSON.stringify({ status: 'completed', output: { data } }), KEY);
    expect(task).toMatchObject({
      status: 'completed',
      notice: `The service listed ${MAX_ANSWER_ENTRIES} images; Pictor keeps the first ${MAX_IMAGES_PER_TASK}.`,
      refusedImages: { 1: expect.stringMatching(/longer than 16,384 characters/) },
    });
    expect(task.status === 'completed' && task.imageUrls).toHaveLength(MAX_IMAGES_PER_TASK);
    expect(task.status === 'completed' && task.imageUrls[1]).toBeNull();
  });

  it(`refuses an answer that lists more than ${MAX_ANSWER_ENTRIES} images, with its sentence`, () => {
    const data = Array.from({ length: MAX_ANSWER_ENTRIES + 1 }, () => ({}));
    const text = JSON.stringify({ status: 'running', output: { data } });
    expect(() => parseTaskAnswer(text, KEY)).toThrow(
      expect.objectContaining({
        kind: 'protocol',
        sentence: sentence('error.service.answerTooManyEntriesQuery', { max: MAX_ANSWER_ENTRIES }),
      }),
    );
  });
});
