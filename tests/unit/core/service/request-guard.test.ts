import { describe, expect, it } from 'vitest';
import {
  checkCredentials,
  redactError,
  redactText,
  redactBody,
} from '../../../../electron/core/service/request-guard';
import { ServiceError } from '../../../../electron/core/service/service-error';

const good = { baseUrl: 'https://api.example.com/', key: 'sk-live-abc123', keyFingerprint: 'fp' };

function configMessage(credentials: typeof good): string {
  try {
    checkCredentials(credentials);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).kind).toBe('config');
    expect((error as ServiceError).mayHaveReachedService).toBe(false);
    return (error as ServiceError).message;
  }
  throw new Error('accepted');
}

describe('checkCredentials', () => {
  it('normalises the base URL and trims the key', () => {
    expect(checkCredentials({ ...good, key: '  sk-live-abc123\n' })).toEqual({
      baseUrl: 'https://api.example.com',
      key: 'sk-live-abc123',
    });
    expect(checkCredentials({ ...good, baseUrl: 'http://127.0.0.1:8080/api/' }).baseUrl).toBe(
      'http://127.0.0.1:8080/api',
    );
    expect(checkCredentials({ ...good, baseUrl: 'http://localhost:1' }).baseUrl).toBe(
      'http://localhost:1',
    );
  });

  it.each([
    ['http://example.com', 'https://'],
    ['ftp://example.com', 'https://'],
    ['https://user:pw@example.com', 'user name or password'],
    ['not a url', 'not a valid URL'],
    ['https://example.com/?q=1', 'query'],
  ])('refuses the base URL %s with the policy sentence', (baseUrl, words) => {
    const message = configMessage({ ...good, baseUrl });
    expect(message).toContain(words);
    expect(message).toContain('Settings');
  });

  it.each([
    ['', 'No API key is set'],
    ['   \t', 'No API key is set'],
    ['sk live', 'contains characters'],
    ['sk\r\nX-Evil: 1', 'contains characters'],
    ['sk-ключ', 'contains characters'],
    ['sk\u0000x', 'contains characters'],
  ])('refuses the key %j', (key, words) => {
    const message = configMessage({ ...good, key });
    expect(message).toContain(words);
    if (key.trim()) expect(message).not.toContain(key.trim());
  });
});

describe('redaction', () => {
  it('replaces the key, its JSON-escaped and its percent-encoded forms', () => {
    const key = 'sk-"q"/+=\\z';
    const text = `raw ${key} json ${JSON.stringify(key)} url ${encodeURIComponent(key)} end`;
    const result = redactText(text, key);
    expect(result).not.toContain(key);
    expect(result).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(result).not.toContain(encodeURIComponent(key));
    expect(result.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('leaves text alone for a key shorter than 4 characters', () => {
    expect(redactText('abc abc', 'abc')).toBe('abc abc');
    expect(redactText('abcd abcd', 'abcd')).toBe('[redacted] [redacted]');
  });

  it('redacts strings deep inside a JSON body, names too, and the body still parses', () => {
    const body =
      '{"error":{"message":"Bearer sk-12345 is bad","list":["sk-12345",3,null]},"__proto__":{"x":"sk-12345"},"sk-12345":1}';
    const redacted = redactBody(body, 'sk-12345');
    expect(redacted).not.toContain('sk-12345');
    expect(JSON.parse(redacted)).toEqual({
      error: { message: 'Bearer [redacted] is bad', list: ['[redacted]', 3, null] },
      ['__proto__']: { x: '[redacted]' },
      '[redacted]': 1,
    });
  });

  it('finds a key escaped as \\u… as a field name nine levels down', () => {
    // Found by the soak-size property run (seed 358863318): the key as a field name, escaped as
    // \u0021…, nine levels down in an error body.
    const key = '!!!!!!!!!!!!!!!!';
    const escapedKey = '\\u0021'.repeat(16);
    const body = `${'{"error":'.repeat(9)}{"${escapedKey}error":{"error":1}}${'}'.repeat(9)}`;
    const redacted = redactBody(body, key);
    expect(JSON.stringify(JSON.parse(redacted))).not.toContain(key);
    expect(redacted).toContain('[redacted]');
  });

  // A deep body was reported as carrying the key because a depth limit gave up.
  it.each([1, 100, 10_000])('reads a body nested %i levels deep without parsing it', (depth) => {
    const key = 'sk-deep-0123456789abcdef';
    const nest = (inner: string) => `${'{"error":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
    const clean = nest('{"message":"quota exceeded"}');
    expect(redactBody(clean, key)).toBe(clean);
    const echoed = nest(`{"message":"bad key ${Buffer.from(key).toString('base64')}"}`);
    const redacted = redactBody(echoed, key);
    expect(redacted).toBe(nest('{"message":"bad key [redacted]"}'));
  });
  it('redacts an error but keeps everything else', () => {
    const error = new ServiceError({
      kind: 'rate_limited',
      message: 'busy sk-12345',
      detail: 'got sk-12345',
      httpStatus: 429,
      retryAfterMs: 5,
      mayHaveReachedService: false,
    });
    const redacted = redactError(error, 'sk-12345');
    expect(redacted).toMatchObject({
      kind: 'rate_limited',
      message: 'busy [redacted]',
      detail: 'got [redacted]',
      httpStatus: 429,
      retryAfterMs: 5,
      mayHaveReachedService: false,
    });
  });
});
