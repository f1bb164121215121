/**
 * Why a task waits in the CLI: every case names what is there (the task's service, the one
 * SERVICE_API_KEY is for, the app's own demo) and never a service that is not there, never the
 * key, and the key goes only to the origin of --base-url.
 */
import { describe, expect, it } from 'vitest';
import { EnvCredentials } from '../../../electron/cli/env-credentials';

const KEY = 'sk-cli-test-0123456789abcdef';

async function credentials(baseUrl: string | null, key: string | null = KEY) {
  return EnvCredentials.create(key === null ? {} : { SERVICE_API_KEY: key }, baseUrl);
}

describe('EnvCredentials', () => {
  it('sends the key only for the origin of --base-url', async () => {
    const cli = await credentials('https://api.example.com/v1');
    expect(await cli.credentialsFor('https://api.example.com')).toMatchObject({
      baseUrl: 'https://api.example.com',
      key: KEY,
    });
    for (const endpoint of [
      'https://api.example.com.evil.test',
      'http://api.example.com',
      'https://api.example.com:8443',
      'demo:',
      'not a url',
    ]) {
      expect(await cli.credentialsFor(endpoint)).toBeNull();
    }
  });

  it('says why a task waits, naming only services that are there', async () => {
    const cases: [baseUrl: string | null, key: string | null, endpoint: string, said: RegExp][] = [
      [null, KEY, 'demo:', /^This task was made on the app's built-in demo service/],
      ['https://api.example.com', KEY, 'demo:', /built-in demo service/],
      // The URL policy's own sentences, as `--base-url` gets them.
      [null, KEY, 'http://images.example.net', /^The service URL must start with https:\/\//],
      [null, KEY, 'ftp://images.example.net', /^The service URL must start with https:\/\/\.$/],
      [null, KEY, 'not a url', /^The service URL is not a valid URL\.$/],
      [
        null,
        KEY,
        'https://images.example.net:8443',
        /^This task lives on images\.example\.net:8443\. SERVICE_API_KEY is sent only/,
      ],
      [
        'https://api.example.com',
        KEY,
        'https://images.example.net',
        /^This task lives on images\.example\.net, but SERVICE_API_KEY is for api\.example\.com and is never sent/,
      ],
      ['https://api.example.com', null, 'https://api.example.com', /^SERVICE_API_KEY is not set\./],
    ];
    for (const [baseUrl, key, endpoint, said] of cases) {
      const reason = (await credentials(baseUrl, key)).missingKeyReason(endpoint);
      expect(reason).toMatch(said);
      expect(reason).not.toMatch(/no service/i);
      expect(reason).not.toContain(KEY);
    }
  });
});
