/**
 * Which spool file an image of a record no longer needs. The `inline:<sha256>` token comes from
 * the record, which an imported archive or a crafted sidecar may have written: only a token of
 * exactly 64 lower-case hex digits names a spool file, so nothing else is ever removed.
 */
import { describe, expect, it } from 'vitest';
import { sentInline, spoolToDrop } from '../../../../electron/core/engine/inline-results';
import type { ImageRecord } from '../../../../shared/domain/task-record';
import { makeTaskRecord } from '../../../support/task-records';

const SHA = 'ab'.repeat(32);

function image(index: number, url: string, state: ImageRecord['state']): ImageRecord {
  return { index, url, state, attempts: 1, favourite: false };
}

function dropped(url: string, state: ImageRecord['state'] = 'saved'): string | null {
  return spoolToDrop(makeTaskRecord({ images: [image(0, url, state)] }), 0);
}

describe('the spool an inline image no longer needs', () => {
  it('is its own once it is saved or refused, never while it may be tried again', () => {
    expect(dropped(`inline:${SHA}`)).toBe(SHA);
    expect(dropped(`inline:${SHA}`, 'invalid')).toBe(SHA);
    expect(dropped(`inline:${SHA}`, 'pending')).toBeNull();
    expect(dropped(`inline:${SHA}`, 'expired')).toBeNull();
  });

  it('is kept while another image of the task names the same bytes and may be tried', () => {
    const record = makeTaskRecord({
      images: [image(0, `inline:${SHA}`, 'saved'), image(1, `inline:${SHA}`, 'pending')],
    });
    expect(spoolToDrop(record, 0)).toBeNull();
  });

  it('is none for a token a record made up', () => {
    for (const url of [
      'inline:../image-1.png',
      `inline:${SHA}/../../image-1.png`,
      `inline:../${SHA.slice(3)}`,
      `inline:${SHA.toUpperCase()}`,
      ` inline:${SHA}`,
      `inline:${SHA}0`,
      'https://cdn.example.com/a.png',
    ]) {
      expect(dropped(url), url).toBeNull();
      expect(sentInline(image(0, url, 'pending')), url).toBe(false);
    }
  });
});
