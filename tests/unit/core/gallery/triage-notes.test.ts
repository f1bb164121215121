/**
 * What rebuild says of a sidecar's triage its record does not keep (core/gallery/triage-notes.ts),
 * through parseSidecar as rebuild reads it: each kind of loss one sentence, nothing for a
 * sidecar within the rules.
 */
import { describe, expect, it } from 'vitest';
import { parseSidecar, sidecarText } from '../../../../electron/core/gallery/sidecar';
import { makeImage, makeTask } from '../../../support/task-records';

function notesOf(images: Array<Record<string, unknown>>): string[] {
  const record = makeTask({ localId: 'a', images: images.map((_, n) => makeImage(n)) });
  const text = JSON.parse(sidecarText(record)) as { record: { images: unknown[] } };
  text.record.images = text.record.images.map((image, n) => ({
    ...(image as object),
    ...images[n],
  }));
  const parsed = parseSidecar(JSON.stringify(text));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.notes;
}

describe('triage notes of a sidecar', () => {
  it('say nothing of triage within the rules', () => {
    expect(
      notesOf([{ rating: 5, flag: 'reject', tags: ['a', 'b'], boards: ['X/Y'] }, { rating: 0 }]),
    ).toEqual([]);
  });

  it('say each loss: a rating out of range, an unknown flag, dropped tags and boards', () => {
    expect(
      notesOf([
        { rating: 9, flag: 'maybe' },
        { rating: -1, tags: ['A', 'a', 'bad\u202e', 'ok'], boards: ['X', 'x', 'a/b/c/d/e/f'] },
        { tags: Array.from({ length: 1_001 }, (_, n) => `t${String(n)}`) },
      ]),
    ).toEqual([
      'Image 1: its rating 9 is not 0 to 5; it is read as unrated.',
      'Image 1: its flag "maybe" is not pick or reject; it is read as none.',
      'Image 2: its rating -1 is not 0 to 5; it is read as unrated.',
      'Image 2: 2 of its tags were dropped (over 64, repeated or not allowed).',
      'Image 2: 2 of its boards were dropped (repeated or not allowed).',
      'Image 3: 1001 of its tags were dropped (over 64, repeated or not allowed).',
    ]);
  });
});
