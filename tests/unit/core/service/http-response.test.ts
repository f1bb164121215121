import { describe, expect, it } from 'vitest';
import {
  bodyExcerpt,
  raceAbort,
  readBodyText,
  stripHtml,
} from '../../../../electron/core/service/http-response';

const never = new AbortController().signal;

function streamResponse(
  chunks: Uint8Array[],
  end: 'close' | 'error' | 'hang',
  headers: HeadersInit = {},
): Response {
  const queue = [...chunks];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next) return controller.enqueue(next);
      if (end === 'close') return controller.close();
      // An error only after every chunk was read, as when a socket dies mid-body.
      if (end === 'error')
        return controller.error(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } }));
      return new Promise<void>(() => undefined);
    },
  });
  return new Response(stream, { headers });
}

describe('readBodyText', () => {
  it('reads a whole body as UTF-8, across chunk boundaries inside a character', async () => {
    const bytes = new TextEncoder().encode('{"a":"ü任"}');
    const response = streamResponse(
      [bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9)],
      'close',
    );
    expect(await readBodyText(response, 1024, never)).toEqual({
      outcome: 'complete',
      text: '{"a":"ü任"}',
    });
  });

  it('reads an empty or absent body as empty text', async () => {
    expect(await readBodyText(new Response(null), 10, never)).toEqual({
      outcome: 'complete',
      text: '',
    });
    expect(await readBodyText(new Response(''), 10, never)).toEqual({
      outcome: 'complete',
      text: '',
    });
  });

  it('accepts exactly maxBytes and stops one byte past it, keeping the first maxBytes', async () => {
    expect(await readBodyText(new Response('x'.repeat(10)), 10, never)).toEqual({
      outcome: 'complete',
      text: 'x'.repeat(10),
    });
    const over = streamResponse(
      [new TextEncoder().encode('abcdef'), new TextEncoder().encode('ghijk')],
      'hang',
    );
    expect(await readBodyText(over, 10, never)).toEqual({
      outcome: 'too_large',
      text: 'abcdefghij',
    });
  });

  it('refuses a declared Content-Length over the cap without reading', async () => {
    const response = streamResponse([], 'hang', { 'content-length': '5000' });
    expect(await readBodyText(response, 1000, never)).toEqual({ outcome: 'too_large', text: '' });
  });

  it('reports a stream that dies mid-way as broken, with what arrived', async () => {
    const response = streamResponse([new TextEncoder().encode('{"id":')], 'error');
    const read = await readBodyText(response, 1000, never);
    expect(read.outcome).toBe('broken');
    expect(read.text).toBe('{"id":');
    expect(read.outcome === 'broken' && read.error).toBeInstanceOf(TypeError);
  });

  it('stops a stalled stream when the signal aborts, even if the stream ignores it', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const reading = readBodyText(
      streamResponse([new TextEncoder().encode('part')], 'hang'),
      1000,
      controller.signal,
    );
    setTimeout(() => controller.abort(reason), 10);
    expect(await reading).toEqual({ outcome: 'broken', text: 'part', error: reason });
  });
});

describe('raceAbort', () => {
  it('settles with the promise when the signal stays quiet', async () => {
    await expect(raceAbort(Promise.resolve(7), never)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('x')), never)).rejects.toThrow('x');
  });

  it('rejects with the reason of an already aborted signal', async () => {
    const reason = new Error('already');
    await expect(raceAbort(new Promise(() => undefined), AbortSignal.abort(reason))).rejects.toBe(
      reason,
    );
  });
});

describe('bodyExcerpt', () => {
  it('strips an HTML page to its words and bounds it to 200 characters', () => {
    const html = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style>
      <script>var secret = 1;</script></head><body><h1>Bad&nbsp;Gateway</h1><!-- upstream --><p>${'word '.repeat(100)}</p></body></html>`;
    const excerpt = bodyExcerpt(html);
    expect(excerpt.startsWith('502 Bad Gateway Bad Gateway word')).toBe(true);
    expect(excerpt).not.toMatch(/[<>]|color:red|secret|upstream/);
    expect(excerpt.length).toBeLessThanOrEqual(200);
  });

  it('flattens control characters and names an empty body', () => {
    expect(bodyExcerpt('line1\r\nline2\u0000\tend')).toBe('line1 line2 end');
    expect(bodyExcerpt('  \n ')).toBe('(empty body)');
  });

  it('leaves text that merely contains a < alone', () => {
    expect(bodyExcerpt('a < b and c > d')).toBe('a < b and c > d');
  });

  it('decodes the common entities', () => {
    expect(stripHtml('<p>&lt;x&gt; &amp; &quot;y&quot;</p>').trim()).toBe('<x> & "y"');
  });
});
