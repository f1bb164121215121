import { describe, expect, it } from 'vitest';
import {
  cleanText,
  describeServiceError,
  generationRequestSchema,
  canonicalTaskSchema,
  normaliseCanonical,
  readProgress,
} from '../../../shared/service/wire';

/** Today's contract's words read as its profile reads them (core/service/providers/pictor.ts). */
const CONTRACT = { processing: 'running', completed: 'succeeded', failed: 'failed' } as const;
function normaliseTask(task: { status: string } & Record<string, unknown>) {
  return normaliseCanonical({ ...task, status: CONTRACT[task.status as keyof typeof CONTRACT] });
}

describe('describeServiceError', () => {
  it.each([
    ['a string', 'invalid api key', 'invalid api key'],
    [
      'an object with message and code',
      { code: 'moderation', message: 'Prompt rejected' },
      'Prompt rejected (moderation)',
    ],
    [
      'a nested error',
      { error: { message: 'Out of GPUs', type: 'server_error' } },
      'Out of GPUs (server_error)',
    ],
    ['an array', [{ msg: 'size too large' }, 'quality unknown'], 'size too large; quality unknown'],
    ['a number', 42, '42'],
    ['a code only', { code: 'E42' }, 'Error E42'],
    ['detail key', { detail: 'Not allowed' }, 'Not allowed'],
    ['control characters', 'bad\u0000\nthing', 'bad thing'],
  ])('turns %s into a sentence', (_what, error, expected) => {
    expect(describeServiceError(error)).toBe(expected);
  });

  it('falls back to JSON for unknown shapes and bounds the length', () => {
    expect(describeServiceError({ weird: true })).toBe('{"weird":true}');
    expect(describeServiceError('x'.repeat(2_000)).length).toBeLessThanOrEqual(500);
    expect(describeServiceError(null)).toBe('');
  });

  it('survives cycles and deep nesting', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.error = cyclic;
    expect(() => describeServiceError(cyclic)).not.toThrow();
  });
});

describe('task parsing', () => {
  it('accepts extra fields and normalises completed, failed and processing tasks', () => {
    const completed = {
      id: 't1',
      status: 'completed',
      extra: { anything: 1 },
      output: { data: [{ url: ' https://x/1.png ', revised_prompt: 'r' }, { b64_json: null }] },
    };
    expect(normaliseTask(completed)).toEqual({
      status: 'completed',
      imageUrls: ['https://x/1.png', null],
    });
    expect(normaliseTask({ status: 'failed', error: 'boom' })).toEqual({
      status: 'failed',
      message: 'boom',
    });
    expect(normaliseTask({ status: 'failed' })).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/without a reason/),
    });
    expect(normaliseTask({ status: 'processing' })).toEqual({
      status: 'processing',
    });
  });

  it('refuses states outside the canonical set and wrong types', () => {
    expect(canonicalTaskSchema().safeParse({ status: 'processing' }).success).toBe(false);
    expect(canonicalTaskSchema().safeParse({ status: 'queued' }).success).toBe(true);
    expect(
      canonicalTaskSchema().safeParse({ status: 'succeeded', output: { data: 'x' } }).success,
    ).toBe(false);
  });
});

describe('generation requests', () => {
  it('requires a prompt and checks the size', () => {
    expect(generationRequestSchema().safeParse({ prompt: '' }).success).toBe(false);
    expect(generationRequestSchema().safeParse({ prompt: 'ok', size: '1024x1024' }).success).toBe(
      true,
    );
    expect(generationRequestSchema().safeParse({ prompt: 'ok', size: '1024X1024' }).success).toBe(
      false,
    );
    expect(generationRequestSchema().safeParse({ prompt: 'ok', size: '0x10' }).success).toBe(false);
  });

  it('cleans text from the network', () => {
    expect(cleanText('  a\tb\u0007c  ')).toBe('a b c');
    // UTF-16 read as bytes: its NULs dropped, so the text (a key's echo) reads as it was.
    expect(cleanText('s\u0000k\u0000-\u0000a\u0000 b')).toBe('sk-a b');
  });
});

describe('readProgress', () => {
  it('reads a percent, a fraction or a percent string, and says nothing for anything else', () => {
    expect(readProgress(42)).toBe(42);
    expect(readProgress(42.9)).toBe(42);
    expect(readProgress(0)).toBe(0);
    expect(readProgress(100)).toBe(100);
    expect(readProgress(0.42)).toBe(42);
    expect(readProgress('42%')).toBe(42);
    expect(readProgress(' 7 ')).toBe(7);
    for (const nothing of [-1, 101, Number.NaN, Infinity, '', 'soon', '1e3', null, {}, [50], true])
      expect(readProgress(nothing), String(nothing)).toBeUndefined();
  });

  it('reaches a processing task, and only a processing one', () => {
    expect(normaliseTask({ status: 'processing', progress: '30%' })).toEqual({
      status: 'processing',
      progress: 30,
    });
    expect(normaliseTask({ status: 'processing', progress: 'lots' })).toEqual({
      status: 'processing',
    });
    expect(
      normaliseTask({ status: 'completed', progress: 50, output: { data: [] } }),
    ).not.toHaveProperty('progress');
  });
});
