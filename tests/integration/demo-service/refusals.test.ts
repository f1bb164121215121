import { describe, expect, it } from 'vitest';
import { auth, errorOf, poll, startService, submit, submitOk } from './helpers';

const SENTENCE = /^[A-Z].*\.$/;

async function expectRefusal(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const error = await errorOf(response);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(SENTENCE);
  return error.message;
}

const accounts = [
  { account: 'alice', key: 'sk-alice-secret' },
  { account: 'bob', key: 'sk-bob-secret' },
];

describe('demo service: authentication', () => {
  it('refuses a request without an Authorization header (401)', async () => {
    const service = await startService();
    const response = await fetch(`${service.url}/v1/images/generations`, {
      method: 'POST',
      body: '{"prompt":"x"}',
    });
    await expectRefusal(response, 401, 'missing_api_key');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a malformed Authorization header (401)', async () => {
    const service = await startService();
    const basic = await submit(service, { prompt: 'x' }, 'demo', {
      Authorization: 'Basic ZGVtbzpkZW1v',
    });
    await expectRefusal(basic, 401, 'invalid_authorization');
    const bare = await submit(service, { prompt: 'x' }, 'demo', { Authorization: 'Bearer' });
    await expectRefusal(bare, 401, 'invalid_authorization');
  });

  it('refuses an unknown key on submit and poll without echoing it (401)', async () => {
    const service = await startService({ accounts });
    const message = await expectRefusal(
      await submit(service, { prompt: 'x' }, 'sk-wrong-key'),
      401,
      'invalid_api_key',
    );
    expect(message).not.toContain('sk-wrong-key');
    const id = await submitOk(service, { prompt: 'x' }, 'sk-alice-secret');
    await expectRefusal(await poll(service, id, 'sk-wrong-key'), 401, 'invalid_api_key');
  });

  it('accepts the key "demo" for account "demo" by default', async () => {
    const service = await startService();
    await submitOk(service, { prompt: 'x' }, 'demo');
    expect(service.tasks()[0]?.account).toBe('demo');
  });
});

describe('demo service: account isolation and unknown tasks', () => {
  it("answers 404 to bob for alice's task, exactly as for an unknown id", async () => {
    const service = await startService({ accounts });
    const id = await submitOk(service, { prompt: 'private' }, 'sk-alice-secret');
    expect((await poll(service, id, 'sk-alice-secret')).status).toBe(200);
    const foreign = await expectRefusal(
      await poll(service, id, 'sk-bob-secret'),
      404,
      'task_not_found',
    );
    const unknown = await expectRefusal(
      await poll(service, 'task_000000000000000000000000', 'sk-bob-secret'),
      404,
      'task_not_found',
    );
    expect(foreign).toBe(unknown);
  });

  it('lets two keys of one account read each other’s tasks', async () => {
    const service = await startService({
      accounts: [
        { account: 'team', key: 'k1' },
        { account: 'team', key: 'k2' },
      ],
    });
    const id = await submitOk(service, { prompt: 'shared' }, 'k1');
    expect((await poll(service, id, 'k2')).status).toBe(200);
  });
});

describe('demo service: request validation (400)', () => {
  const cases: [string, unknown, string, string?][] = [
    ['a missing prompt', { size: '64x64' }, 'missing_prompt', 'prompt'],
    ['an empty prompt', { prompt: '   ' }, 'missing_prompt', 'prompt'],
    ['a prompt that is not a string', { prompt: 42 }, 'invalid_prompt', 'prompt'],
    ['a size without x', { prompt: 'p', size: 'big' }, 'invalid_size', 'size'],
    ['a size missing its height', { prompt: 'p', size: '1024x' }, 'invalid_size', 'size'],
    ['a zero size', { prompt: 'p', size: '0x10' }, 'invalid_size', 'size'],
    ['a fractional size', { prompt: 'p', size: '10.5x10' }, 'invalid_size', 'size'],
    ['a size that is not a string', { prompt: 'p', size: 1024 }, 'invalid_size', 'size'],
    ['an unknown quality', { prompt: 'p', quality: 'ultra' }, 'invalid_quality', 'quality'],
    ['an empty model', { prompt: 'p', model: '' }, 'invalid_model', 'model'],
    ['a model that is not a string', { prompt: 'p', model: 5 }, 'invalid_model', 'model'],
    ['a body that is an array', [{ prompt: 'p' }], 'invalid_request'],
    ['a body that is a string', '"a fox"', 'invalid_request'],
    ['a body that is null', 'null', 'invalid_request'],
    ['a body that is not JSON', '{prompt: a fox}', 'invalid_json'],
    ['an empty body', '', 'invalid_json'],
  ];

  it.each(cases)('refuses %s', async (_label, body, code, param) => {
    const service = await startService();
    const response = await submit(service, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(SENTENCE);
    if (param) expect(error.param).toBe(param);
    expect(service.tasks()).toHaveLength(0);
  });

  it('accepts every documented quality', async () => {
    const service = await startService();
    for (const quality of ['low', 'medium', 'high', 'auto', 'standard', 'hd']) {
      expect((await submit(service, { prompt: 'p', quality })).status).toBe(200);
    }
  });

  it('refuses a size over the cap and says what the cap is', async () => {
    const service = await startService();
    const message = await expectRefusal(
      await submit(service, { prompt: 'p', size: '2049x512' }),
      400,
      'invalid_size',
    );
    expect(message).toContain('2048');
    expect((await submit(service, { prompt: 'p', size: '2048x2048' })).status).toBe(200);
  });

  it('uses a configured cap', async () => {
    const service = await startService({ maxImageSide: 256 });
    const message = await expectRefusal(
      await submit(service, { prompt: 'p', size: '64x257' }),
      400,
      'invalid_size',
    );
    expect(message).toContain('256');
  });

  it('refuses a body over maxBodyBytes, and accepts one just under', async () => {
    const service = await startService({ maxBodyBytes: 1024 });
    const big = await submit(service, { prompt: 'x'.repeat(5000) });
    const message = await expectRefusal(big, 400, 'request_too_large');
    expect(message).toContain('1 KiB');
    expect((await submit(service, { prompt: 'x'.repeat(900) })).status).toBe(200);
  });

  it('refuses a body over the default 64 KiB', async () => {
    const service = await startService();
    await expectRefusal(
      await submit(service, { prompt: 'x'.repeat(70 * 1024) }),
      400,
      'request_too_large',
    );
  });
});

describe('demo service: credits (402)', () => {
  it('charges one credit per accepted submit and refuses at 0', async () => {
    const service = await startService({
      accounts: [
        { account: 'alice', key: 'ka', credits: 2 },
        { account: 'bob', key: 'kb' },
      ],
    });
    expect((await submit(service, { prompt: 'one' }, 'ka')).status).toBe(200);
    expect((await submit(service, { prompt: '' }, 'ka')).status).toBe(400);
    expect((await submit(service, { prompt: 'two' }, 'ka')).status).toBe(200);
    await expectRefusal(
      await submit(service, { prompt: 'three' }, 'ka'),
      402,
      'insufficient_credits',
    );
    expect((await submit(service, { prompt: 'unlimited' }, 'kb')).status).toBe(200);
    expect(service.tasks().filter((task) => task.account === 'alice')).toHaveLength(2);
  });

  it('follows setCredits, including back to unlimited', async () => {
    const service = await startService();
    service.setCredits('demo', 0);
    await expectRefusal(await submit(service, { prompt: 'p' }), 402, 'insufficient_credits');
    service.setCredits('demo', 1);
    expect((await submit(service, { prompt: 'p' })).status).toBe(200);
    expect((await submit(service, { prompt: 'p' })).status).toBe(402);
    service.setCredits('demo', undefined);
    expect((await submit(service, { prompt: 'p' })).status).toBe(200);
    expect(() => service.setCredits('nobody', 1)).toThrow(/no account/);
  });

  it('lets a poll through when credits are gone', async () => {
    const service = await startService();
    const id = await submitOk(service, { prompt: 'p' });
    service.setCredits('demo', 0);
    expect((await poll(service, id)).status).toBe(200);
  });
});

describe('demo service: methods and paths', () => {
  it('answers 405 with Allow for a wrong method', async () => {
    const service = await startService();
    const get = await fetch(`${service.url}/v1/images/generations`, { headers: auth('demo') });
    await expectRefusal(get, 405, 'method_not_allowed');
    expect(get.headers.get('allow')).toBe('POST');
    const del = await fetch(`${service.url}/v1/tasks/task_x`, {
      method: 'DELETE',
      headers: auth('demo'),
    });
    await expectRefusal(del, 405, 'method_not_allowed');
    expect(del.headers.get('allow')).toBe('GET');
  });

  it('answers 404 for an unknown path', async () => {
    const service = await startService();
    for (const path of [
      '/',
      '/v2/images/generations',
      '/v1/tasks/',
      '/v1/images/generations/extra',
    ]) {
      await expectRefusal(
        await fetch(`${service.url}${path}`, { headers: auth('demo') }),
        404,
        'not_found',
      );
    }
  });

  it('keeps the /_demo control paths closed unless control is on', async () => {
    const service = await startService();
    await expectRefusal(await fetch(`${service.url}/_demo/log`), 404, 'not_found');
  });
});
