/**
 * A completed answer that carries its images inline: each `data:` URL or `b64_json` leaves the
 * answer as decoded bytes and a short `inline:<sha256>` token where its address would be; a
 * payload Pictor refuses leaves only its reason; an `inline:` address the service wrote itself,
 * or a payload that carried the key, is refused.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../../fakes/quirky-cdn';
import { parseTaskAnswer } from '../../../support/answer-parsers';
import { formatBytes } from '../../../../shared/text/format-bytes';
import { sentence } from '../../../../shared/i18n/sentence';
import type { CompletedTask, ServiceTask } from '../../../../shared/service/wire';

const KEY = 'sk-live-123456789';
let png: Buffer;
let base64: string;
let sha: string;

beforeAll(async () => {
  png = await renderPng(8, 8, 0);
  base64 = png.toString('base64');
  sha = createHash('sha256').update(png).digest('hex');
});

function completed(data: unknown[], key = KEY, maxBytes?: number): CompletedTask {
  const text = JSON.stringify({ id: 't', status: 'completed', output: { data } });
  const task: ServiceTask = parseTaskAnswer(text, key, undefined, maxBytes);
  if (task.status !== 'completed') throw new Error(`not completed: ${task.status}`);
  return task;
}

function refused(why: string, limit = '64 MiB') {
  return sentence('error.service.inlineImageRefused', { why, limit });
}

describe('an answer with images inline', () => {
  it('turns b64_json into bytes and a token', () => {
    const task = completed([{ b64_json: base64 }]);
    expect(task.imageUrls).toEqual([`inline:${sha}`]);
    expect(Buffer.from(task.inlineImages?.[0]?.bytes ?? []).equals(png)).toBe(true);
    expect(task.inlineImages?.[0]?.sha256).toBe(sha);
  });

  it('turns a data: URL into bytes and a token, beside an ordinary address', () => {
    const task = completed([
      { url: 'https://cdn.example.com/a.png' },
      { url: `data:image/png;base64,${base64}` },
    ]);
    expect(task.imageUrls).toEqual(['https://cdn.example.com/a.png', `inline:${sha}`]);
    expect(Object.keys(task.inlineImages ?? {})).toEqual(['1']);
  });

  it('keeps the base64 text out of everything but the decoded bytes', () => {
    const task = completed([{ b64_json: base64 }, { url: `data:text/html;base64,${base64}` }]);
    const { inlineImages: _bytes, ...kept } = task;
    expect(JSON.stringify(kept)).not.toContain(base64.slice(0, 40));
  });

  it('refuses what the strict decoder refuses, each with its sentence', () => {
    const task = completed([
      { b64_json: `${base64.slice(0, 20)}*${base64.slice(21)}` },
      { b64_json: base64.replace(/=+$/, '') + (base64.endsWith('=') ? '' : 'A') },
      { url: `data:text/html;base64,${base64}` },
      { url: `data:image/svg+xml;base64,${base64}` },
      { b64_json: '' },
      { url: `data:image/png,${base64}` },
    ]);
    expect(task.imageUrls).toEqual([null, null, null, null, null, null]);
    expect(task.refusedImageSentences).toEqual({
      0: refused('alphabet'),
      1: refused('padding'),
      2: refused('type'),
      3: refused('type'),
      4: refused('empty'),
      5: refused('notBase64'),
    });
    expect(task.inlineImages).toBeUndefined();
  });

  it('refuses an image over the cap', () => {
    const cap = png.length - 1;
    const task = completed([{ url: `data:image/png;base64,${base64}` }], KEY, cap);
    expect(task.imageUrls).toEqual([null]);
    expect(task.refusedImageSentences).toEqual({ 0: refused('tooBig', formatBytes(cap)) });
  });

  it('refuses an inline: address the service wrote itself', () => {
    const task = completed([{ url: `inline:${sha}` }, { url: `INLINE:${sha}` }]);
    expect(task.imageUrls).toEqual([null, null]);
    expect(task.refusedImageSentences?.[0]).toEqual(refused('other'));
    expect(task.refusedImageSentences?.[1]).toEqual(refused('other'));
  });

  it('looks for the key in the answer around the payloads, not in them', () => {
    // An address that carries the key is refused beside an inline image, which is kept: its
    // bytes become an image file only, as a downloaded body's do.
    const key = 'AbCdEfGhIjKlMnOp';
    const tainted = base64.slice(0, 16) + key + base64.slice(16 + key.length);
    const task = completed(
      [{ url: `https://cdn.example.com/${key}.png` }, { b64_json: tainted }],
      key,
    );
    expect(task.imageUrls[0]).toBeNull();
    expect(task.refusedImageSentences?.[0]?.key).toBe('error.service.keyInImageUrl');
    expect(task.imageUrls[1]).toMatch(/^inline:[0-9a-f]{64}$/);
  });

  it('still looks for the key in any other text that starts like a data: URL', () => {
    // Only the payloads taken as images leave the text the key is looked for in: a failure's
    // reason that echoes the request (`data: …`) beside one is still read for the key.
    const failed = parseTaskAnswer(
      JSON.stringify({
        status: 'failed',
        error: `data: the request had Authorization: Bearer ${KEY}`,
        output: { data: [{ b64_json: base64 }] },
      }),
      KEY,
    );
    expect(failed.status).toBe('failed');
    expect(JSON.stringify(failed)).not.toContain(KEY);
    const model = parseTaskAnswer(
      JSON.stringify({
        status: 'completed',
        model: `data:${KEY}`,
        output: { data: [{ url: `data:image/png;base64,${base64}` }] },
      }),
      KEY,
    );
    expect(JSON.stringify(model)).not.toContain(KEY);
  });

  it('reads megabytes of base64 without scanning them for the key', () => {
    const bytes = Buffer.alloc(16 * 1024 * 1024, 0x5a);
    const text = JSON.stringify({
      status: 'completed',
      model: 'a-model',
      output: { data: [{ b64_json: bytes.toString('base64') }] },
    });
    const started = performance.now();
    const task = parseTaskAnswer(text, KEY);
    expect(task.status).toBe('completed');
    // Scanned, this took over a minute on the test machine; decoded alone, well under a second.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('leaves a processing answer and a failure as they were', () => {
    const processing = parseTaskAnswer(
      JSON.stringify({ status: 'processing', output: { data: [{ b64_json: base64 }] } }),
      KEY,
    );
    expect(processing).toEqual({ status: 'processing' });
    const failed = parseTaskAnswer(
      JSON.stringify({ status: 'failed', error: 'no', output: { data: [{ b64_json: 'x' }] } }),
      KEY,
    );
    expect(failed).toEqual({ status: 'failed', message: 'no' });
  });
});
