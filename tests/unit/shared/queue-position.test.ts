/**
 * A task's place in its service's queue is believed only as a whole number from 0 (next) to
 * MAX_QUEUE_POSITION: where the service's answer is read, and again where the live state crosses
 * to the window.
 */
import { describe, expect, it } from 'vitest';
import { MAX_QUEUE_POSITION } from '../../../shared/domain/limits';
import { liveStateSchema } from '../../../shared/domain/live-state';
import { normaliseCanonical } from '../../../shared/service/wire';

const JUNK: readonly unknown[] = [
  -1,
  1.5,
  '3',
  MAX_QUEUE_POSITION + 1,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  null,
  { position: 3 },
];

describe('a queue position read from a service', () => {
  const queued = (queuePosition: unknown) =>
    normaliseCanonical({ status: 'queued', queuePosition });

  it('is kept as the service said it, 0 meaning next', () => {
    expect(queued(0)).toEqual({ status: 'processing', phase: 'queued', queuePosition: 0 });
    expect(queued(3)).toEqual({ status: 'processing', phase: 'queued', queuePosition: 3 });
    expect(queued(MAX_QUEUE_POSITION)).toMatchObject({ queuePosition: MAX_QUEUE_POSITION });
  });

  it.each(JUNK)('is dropped, not refused, when it is %s', (value) => {
    expect(queued(value)).toEqual({ status: 'processing', phase: 'queued' });
  });

  it('is never carried by a task that is done', () => {
    const done = normaliseCanonical({
      status: 'succeeded',
      queuePosition: 2,
      output: { data: [] },
    });
    expect(done).not.toHaveProperty('queuePosition');
  });
});

describe('a queue position in the live state sent to the window', () => {
  const live = { nextPollAt: null, polling: false, downloads: 0 };

  it('passes as a whole number from 0 to the bound, or absent', () => {
    for (const queuePosition of [0, 7, MAX_QUEUE_POSITION]) {
      expect(liveStateSchema().parse({ ...live, queuePosition })).toEqual({
        ...live,
        queuePosition,
      });
    }
    expect(liveStateSchema().parse(live)).toEqual(live);
  });

  it.each(JUNK)('is refused when it is %s', (queuePosition) => {
    expect(liveStateSchema().safeParse({ ...live, queuePosition }).success).toBe(false);
  });
});
