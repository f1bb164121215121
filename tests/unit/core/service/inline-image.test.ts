/**
 * The strict decoder of images sent inline: only the standard base64 alphabet, padded to a whole
 * quantum with no bits left over, at most the cap once decoded (judged before decoding), and a
 * `data:` URL only of PNG, JPEG or WebP marked `;base64`. Everything else is refused with why.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../../fakes/quirky-cdn';
import {
  base64Length,
  decodeBase64Image,
  decodeDataUrl,
  isDataUrl,
} from '../../../../electron/core/service/inline-image';

const CAP = 64 * 1024;
let png: Buffer;
let base64: string;

beforeAll(async () => {
  png = await renderPng(16, 16, 1);
  base64 = png.toString('base64');
});

function refusal(text: string, max = CAP): string | null {
  const read = decodeBase64Image(text, max);
  return read.ok ? null : read.why;
}

describe('base64 of an inline image', () => {
  it('decodes a real PNG to its bytes and their SHA-256', () => {
    const read = decodeBase64Image(base64, CAP);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(Buffer.from(read.image.bytes).equals(png)).toBe(true);
    expect(read.image.sha256).toBe(createHash('sha256').update(png).digest('hex'));
  });

  it('refuses characters outside the standard alphabet', () => {
    const middle = Math.floor(base64.length / 2);
    for (const bad of ['*', '-', '_', ' ', '\n', 'é', '%', '=']) {
      const text = base64.slice(0, middle) + bad + base64.slice(middle + 1);
      expect(refusal(text), JSON.stringify(bad)).toBe('alphabet');
    }
    // base64url is another alphabet: refused, not read as the same bytes.
    expect(refusal('ab-_')).toBe('alphabet');
    expect(refusal(`${base64}\n`)).toBe('alphabet');
  });

  it('refuses missing, extra and misplaced padding and bits left over', () => {
    expect(refusal('QUJD')).toBeNull(); // "ABC"
    expect(refusal('QUI=')).toBeNull(); // "AB"
    expect(refusal('QQ==')).toBeNull(); // "A"
    expect(refusal('QUI')).toBe('padding');
    expect(refusal('QQ')).toBe('padding');
    expect(refusal('QQ=')).toBe('padding');
    expect(refusal('QUJDQ')).toBe('padding');
    expect(refusal('Q===')).toBe('alphabet');
    // The same bytes written with non-zero bits after them: not the canonical encoding.
    expect(refusal('QUJ=')).toBe('padding');
    expect(refusal('QR==')).toBe('padding');
  });

  it('refuses an empty payload', () => {
    expect(refusal('')).toBe('empty');
  });

  it('refuses more than the cap once decoded, judged from the length alone', () => {
    expect(refusal(base64, png.length)).toBeNull();
    expect(refusal(base64, png.length - 1)).toBe('tooBig');
    // Junk longer than the cap allows is refused for its length before its characters are
    // looked at (they would say `alphabet`): a huge string is never scanned.
    expect(refusal('*'.repeat(20 * 1024 * 1024))).toBe('tooBig');
    expect(refusal('*'.repeat(base64Length(CAP) + 4))).toBe('tooBig');
    expect(base64Length(3)).toBe(4);
    expect(base64Length(4)).toBe(8);
  });
});

describe('a data: URL', () => {
  it('is recognised in any case, after spaces', () => {
    expect(isDataUrl('data:image/png;base64,AAAA')).toBe(true);
    expect(isDataUrl('  DATA:image/png;base64,AAAA')).toBe(true);
    expect(isDataUrl('https://cdn.example/data:x')).toBe(false);
  });

  it('of a PNG, JPEG or WebP in base64 gives its bytes, parameters allowed', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'IMAGE/PNG']) {
      const read = decodeDataUrl(`data:${type};base64,${base64}`, CAP);
      expect(read.ok, type).toBe(true);
    }
    const named = decodeDataUrl(`data:image/png;name=out.png;base64,${base64}`, CAP);
    expect(named.ok).toBe(true);
  });

  it('of another type is refused as such, whatever its bytes', () => {
    for (const type of [
      'text/html',
      'image/svg+xml',
      'image/gif',
      'application/octet-stream',
      '',
    ]) {
      const read = decodeDataUrl(`data:${type};base64,${base64}`, CAP);
      expect(read, type).toEqual({ ok: false, why: 'type' });
    }
  });

  it('not marked base64, or with a malformed header, is refused', () => {
    expect(decodeDataUrl('data:image/png,%89PNG', CAP)).toEqual({ ok: false, why: 'notBase64' });
    expect(decodeDataUrl(`data:image/png;base64`, CAP)).toEqual({ ok: false, why: 'notBase64' });
    expect(decodeDataUrl(`data:image/png;x y;base64,${base64}`, CAP)).toEqual({
      ok: false,
      why: 'notBase64',
    });
    expect(decodeDataUrl(`data:image/png;base64,${base64.slice(1)}`, CAP).ok).toBe(false);
  });

  it('too large is refused from its length', () => {
    expect(decodeDataUrl(`data:image/png;base64,${base64}`, png.length - 1)).toEqual({
      ok: false,
      why: 'tooBig',
    });
  });
});
