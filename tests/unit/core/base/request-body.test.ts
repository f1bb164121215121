/**
 * A body encoded for a transport that takes bytes: what `fetch` itself would send. A form is
 * read back by the demo's multipart reader, part by part and byte for byte, under the boundary the
 * Content-Type names (the caller's Content-Type cannot override it); other bodies keep the
 * caller's type and get their own only when there is none.
 */
import { describe, expect, it } from 'vitest';
import { encodeBody } from '../../../../electron/core/base/request-body';
import { readForm } from '../../../../electron/demo-service/multipart';

const BYTES = Uint8Array.from({ length: 300 }, (_, index) => (index * 7) % 256);

describe('encodeBody', () => {
  it('encodes a form as multipart/form-data, parts in order, the file byte for byte', async () => {
    const form = new FormData();
    form.append('policy', 'eyJhIjoxfQ==');
    form.append('file', new Blob([BYTES], { type: 'image/png' }), 'a.png');
    const { bytes, headers } = await encodeBody(form, { 'Content-Type': 'text/plain' });
    const type = headers.get('content-type') ?? '';
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    const parts = readForm(type, Buffer.from(bytes));
    expect(parts?.map((part) => [part.name, part.fileName, part.contentType])).toEqual([
      ['policy', undefined, undefined],
      ['file', 'a.png', 'image/png'],
    ]);
    expect(parts?.[0]?.value.toString()).toBe('eyJhIjoxfQ==');
    expect(parts?.[1]?.value.equals(Buffer.from(BYTES))).toBe(true);
  });

  it("keeps the caller's Content-Type for bytes and blobs, and a blob's own when there is none", async () => {
    const blob = new Blob([BYTES], { type: 'image/webp' });
    const given = await encodeBody(blob, { 'Content-Type': 'image/png', 'X-Other': 'kept' });
    expect([given.headers.get('content-type'), given.headers.get('x-other')]).toEqual([
      'image/png',
      'kept',
    ]);
    expect(given.bytes).toEqual(BYTES);
    const own = await encodeBody(blob);
    expect(own.headers.get('content-type')).toBe('image/webp');
    const raw = await encodeBody(BYTES);
    expect([raw.headers.get('content-type'), raw.bytes]).toEqual([null, BYTES]);
    const text = await encodeBody('héllo');
    expect(text.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(Buffer.from(text.bytes).toString('utf8')).toBe('héllo');
  });
});
