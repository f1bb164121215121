import { describe, expect, it } from 'vitest';
import type { ServiceError } from '../../../../electron/core/service/service-error';
import { answer, json } from './fake-fetch';
import { client, credentials, queryFails, submitFails } from './answer-harness';

describe('submit request', () => {
  it('POSTs the spec fields as JSON with the bearer key and returns the id', async () => {
    const { client: service, calls } = client(
      json(200, { id: ' task_1 ', status: 'processing', created: 1 }),
    );
    const request = {
      prompt: 'a cat',
      model: 'img-1',
      size: '1024x1024',
      quality: 'low',
      extra: 'no',
    };
    await expect(service.submit(credentials, request)).resolves.toEqual({ id: 'task_1' });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.url).toBe('https://api.example.com/v1/images/generations');
    expect(call!.method).toBe('POST');
    expect(call!.headers.get('authorization')).toBe('Bearer sk-test-0123456789');
    expect(call!.headers.get('content-type')).toBe('application/json');
    expect(call!.headers.get('accept')).toBe('application/json');
    expect(call!.body).toBe(
      '{"model":"img-1","prompt":"a cat","size":"1024x1024","quality":"low"}',
    );
    expect(call!.init?.redirect).toBe('manual');
    expect(call!.init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('leaves absent and empty optional fields out of the body', async () => {
    const { client: service, calls } = client(json(200, { id: 't' }));
    await service.submit(credentials, { prompt: 'a cat', model: undefined, quality: '' } as never);
    expect(JSON.parse(calls[0]!.body!)).toEqual({ prompt: 'a cat' });
  });
});

describe('task query request', () => {
  it('GETs the encoded task path with the key and no body', async () => {
    const { client: service, calls } = client(json(200, { status: 'processing' }));
    await expect(
      service.getTask({ ...credentials, baseUrl: 'https://api.example.com/proxy/' }, ' a/b '),
    ).resolves.toEqual({
      status: 'processing',
    });
    expect(calls[0]!.url).toBe('https://api.example.com/proxy/v1/tasks/a%2Fb');
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.body).toBeUndefined();
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer sk-test-0123456789');
    expect(calls[0]!.headers.has('content-type')).toBe(false);
  });

  it.each<[unknown, unknown]>([
    // A progress the service reports is kept (shown as a percentage); other extra fields are not.
    [
      { status: 'processing', progress: 40 },
      { status: 'processing', progress: 40 },
    ],
    [
      {
        id: 't',
        status: 'completed',
        output: {
          data: [
            { url: ' https://cdn/x.png ' },
            {},
            { url: '' },
            { url: 'https://cdn/y.png', b64: 'z' },
          ],
        },
      },
      { status: 'completed', imageUrls: ['https://cdn/x.png', null, null, 'https://cdn/y.png'] },
    ],
    [{ status: 'completed' }, { status: 'completed', imageUrls: [] }],
    [
      { status: 'completed', output: null },
      { status: 'completed', imageUrls: [] },
    ],
    [
      { status: 'failed', error: 'content policy' },
      { status: 'failed', message: 'content policy' },
    ],
    [
      { status: 'failed', error: { message: 'blocked', code: 'policy' } },
      { status: 'failed', message: 'blocked (policy)' },
    ],
    [
      { status: 'failed', error: { error: { message: 'nested' } } },
      { status: 'failed', message: 'nested' },
    ],
    [
      { status: 'failed', error: [{ message: 'a' }, 'b'] },
      { status: 'failed', message: 'a; b' },
    ],
    [
      { status: 'failed', error: 17 },
      { status: 'failed', message: '17' },
    ],
    [
      { status: 'failed', error: null },
      {
        status: 'failed',
        message: 'The service reported the task as failed without a reason.',
        sentence: { key: 'error.service.failedWithoutReason' },
      },
    ],
    [
      { status: 'failed' },
      {
        status: 'failed',
        message: 'The service reported the task as failed without a reason.',
        sentence: { key: 'error.service.failedWithoutReason' },
      },
    ],
  ])('normalises %j', async (body, task) => {
    await expect(client(json(200, body)).client.getTask(credentials, 'task_1')).resolves.toEqual(
      task,
    );
  });
});

describe('status mapping', () => {
  it.each<[number, ServiceError['kind']]>([
    [400, 'bad_request'],
    [401, 'auth'],
    [402, 'credits'],
    [403, 'auth'],
    [404, 'not_found'],
    [405, 'bad_request'],
    [408, 'timeout'],
    [409, 'bad_request'],
    [413, 'bad_request'],
    [422, 'bad_request'],
    [429, 'rate_limited'],
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [504, 'server'],
    [599, 'server'],
    [300, 'protocol'],
    [304, 'protocol'],
  ])('%d → %s, a failed request that did not act', async (status, kind) => {
    for (const fails of [submitFails, queryFails]) {
      const error = await fails(answer(status, ''));
      expect(error.kind).toBe(kind);
      expect(error.httpStatus).toBe(status);
      expect(error.mayHaveReachedService).toBe(false);
      expect(error.message).toContain(`(${status})`);
      expect(error.message).toMatch(/^[A-Z].*[.]$/);
      expect(error.detail).toContain(`HTTP ${status}`);
    }
  });

  it('says what to do for the common refusals', async () => {
    expect((await submitFails(answer(401))).message).toBe(
      'The service refused the API key (401). Check the key in Settings.',
    );
    expect((await submitFails(answer(402))).message).toBe(
      'The account has run out of credits (402). Add credits in the service’s billing console, then try again.',
    );
    expect((await queryFails(answer(404))).message).toContain('does not know this task');
    expect((await submitFails(answer(404))).message).toContain('Check the service URL');
    expect((await submitFails(answer(503))).message).toContain('usually temporary');
  });

  it.each([201, 202, 204])(
    'a %d to a submit is not success: protocol, and the task may exist',
    async (status) => {
      const error = await submitFails(json(status, { id: 'task_1' }));
      expect(error).toMatchObject({
        kind: 'protocol',
        httpStatus: status,
        mayHaveReachedService: true,
      });
      expect(error.message).toContain(`${status} instead of 200`);
      expect(error.message).toContain('may have been created');
      // The body is kept in the detail: it may name the task that was created after all.
      if (status !== 204) expect(error.detail).toContain('task_1');
    },
  );

  it('a 204 to a query is a protocol error', async () => {
    expect(await queryFails(answer(204, null))).toMatchObject({
      kind: 'protocol',
      httpStatus: 204,
    });
  });
});

describe('server messages of failed requests', () => {
  it.each<[string, string]>([
    ['"The prompt is too long"', 'The prompt is too long'],
    ['{"message":"size must be 1024x1024"}', 'size must be 1024x1024'],
    ['{"error":"bad quality"}', 'bad quality'],
    [
      '{"error":{"message":"Invalid size","code":"invalid_size","param":"size"}}',
      'Invalid size (invalid_size)',
    ],
    ['[{"msg":"field required"},{"msg":"too short"}]', 'field required; too short'],
    ['42', '42'],
    ['{"error":{"code":"E42"}}', 'Error E42'],
    ['{"detail":[{"loc":["body","size"],"msg":"bad size"}]}', 'bad size'],
    ['plain text reason', 'plain text reason'],
    [
      '<html><body><h1>Bad request</h1><p>quality &amp; size</p></body></html>',
      'Bad request quality & size',
    ],
  ])('400 with %s says "%s"', async (body, said) => {
    const error = await submitFails(answer(400, body));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toBe(
      `The service rejected the request (400): ${said}. Check the prompt and its options, then try again.`,
    );
    expect(error.detail).toContain(said);
  });

  it.each(['', 'null', '{}', '[]'])(
    '400 with %j still gives a sentence and the status line',
    async (body) => {
      const error = await submitFails(answer(400, body));
      expect(error.message).toMatch(/^The service rejected the request \(400\)(: .+)?\. Check/);
      expect(error.detail).toMatch(/^HTTP 400/);
    },
  );

  it('keeps long server text out of the sentence but in the detail', async () => {
    const error = await submitFails(json(400, { error: { message: `${'long '.repeat(80)}end` } }));
    expect(error.message.length).toBeLessThan(320);
    expect(error.detail!.length).toBeGreaterThan(error.message.length);
  });

  it('uses the start of an error body larger than the cap', async () => {
    const error = await submitFails(answer(400, `{"message":"x"}${' '.repeat(5000)}`), 200);
    expect(error.kind).toBe('bad_request');
    const html = await submitFails(
      answer(500, `<html><h1>Oops</h1>${'<p>filler</p>'.repeat(500)}</html>`),
      200,
    );
    expect(html).toMatchObject({ kind: 'server', httpStatus: 500 });
    expect(html.detail).toContain('Oops');
  });
});

describe('Retry-After', () => {
  it.each<[string | undefined, number | undefined]>([
    ['30', 30_000],
    ['Sat, 01 Mar 2025 12:02:00 GMT', 120_000],
    ['Fri, 28 Feb 2025 12:00:00 GMT', 0],
    ['later please', undefined],
    ['99999999', 3_600_000],
    [undefined, undefined],
  ])('429 with Retry-After %j → retryAfterMs %s', async (value, ms) => {
    const error = await queryFails(
      answer(429, '{"error":"slow down"}', value === undefined ? {} : { 'retry-after': value }),
    );
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(ms);
    expect(error.message.includes('asked Pictor to wait')).toBe(ms !== undefined);
  });

  it('503 carries Retry-After; 400 ignores it', async () => {
    expect((await submitFails(answer(503, '', { 'retry-after': '120' }))).retryAfterMs).toBe(
      120_000,
    );
    expect((await submitFails(answer(503, '', { 'retry-after': '120' }))).message).toContain(
      'about 2 minutes',
    );
    expect(
      (await submitFails(answer(400, '', { 'retry-after': '120' }))).retryAfterMs,
    ).toBeUndefined();
  });
});
