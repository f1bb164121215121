import { describe, expect, it } from 'vitest';
import { describeNonImage, sniffImage } from '../../../../electron/core/images/image-sniff';
import { IMAGE_MAX_RETRY_AFTER_MS } from '../../../../electron/core/download/image-request';
import { parseRetryAfter as parseWithCap } from '../../../../electron/core/service';
import { englishText, sentence } from '../../../../shared/i18n/sentence';

const bytes = (text: string) => new TextEncoder().encode(text);
const withHead = (head: number[]) => Uint8Array.from([...head, ...new Array(16).fill(0)]);

describe('sniffImage', () => {
  it('recognises PNG, JPEG and WebP by their magic bytes', () => {
    expect(sniffImage(withHead([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImage(withHead([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(bytes('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('webp');
  });

  it('refuses near misses and short input', () => {
    expect(sniffImage(bytes('RIFF\x10\x00\x00\x00WAVEfmt '))).toBeNull();
    expect(sniffImage(withHead([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00]))).toBeNull();
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff]))).toBeNull();
  });
});

describe('describeNonImage', () => {
  /** The phrase the user reads: the kind, worded by the notAnImage sentence. */
  const phraseOf = (head: Uint8Array) =>
    englishText(sentence('error.gallery.notAnImage', { kind: describeNonImage(head) }))
      .replace(/^The image server sent /, '')
      .replace(/ instead of a PNG, JPEG or WebP image\.$/, '');

  it.each([
    ['', 'an empty file'],
    ['\uFEFF  <!DOCTYPE HTML><html>', 'an HTML page'],
    ['<p>hi</p><body>', 'an HTML page'],
    ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'an SVG'],
    ['<?xml version="1.0"?><!-- made by hand --><svg>', 'an SVG'],
    ['<?xml version="1.0"?><feed>', 'an XML document'],
    ['{"error":"expired"}', 'a JSON document'],
    ['GIF89a\x01\x00', 'a GIF'],
    ['Access denied', 'a text file'],
  ])('%j is %s', (text, phrase) => {
    expect(phraseOf(bytes(text))).toBe(phrase);
  });

  it('calls unknown binary "a file of an unknown kind"', () => {
    expect(phraseOf(Uint8Array.from([0x00, 0x01, 0x02, 0xfe, 0x9c]))).toBe(
      'a file of an unknown kind',
    );
  });
});

describe("parseRetryAfter with an image host's cap", () => {
  const parseRetryAfter = (value: string | null, at: number) =>
    parseWithCap(value, at, IMAGE_MAX_RETRY_AFTER_MS);
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it('reads whole seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
  });

  it('never goes below zero or above a day, and ignores junk', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('99999999', now)).toBe(24 * 60 * 60 * 1000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
