/**
 * Why a task waits in the CLI: every case names what is there (the task's service, the one
 * SERVICE_API_KEY is for, the app's own demo) and never a service that is not there, never the
 * key, and the key goes only to the base URL of --base-url (origin and path).
 */
import { describe, expect, it } from 'vitest';
import { EnvCredentials } from '../../../electron/cli/env-credentials';

const KEY = 'sk-cli-test-0123456789abcdef';

async function credentials(baseUrl: string | null, key: string | null = KEY) {
  return EnvCredentials.create(key === null ? {} : { SERVICE_API_KEY: key }, baseUrl);
}

describe('EnvCredentials', () => {
  it('sends the key only for the base URL of --base-url, in any of its spellings', async () => {
    const cli = await credentials('https://gateway.example/team-a/v1/');
    expect(cli.namedBaseUrl).toBe('https://gateway.example/team-a');
    for (const same of [
      'https://gateway.example/team-a',
      'https://gateway.example/team-a/',
      'HTTPS://Gateway.Example:443/team-a',
      'https://gateway.example/x/../team-a',
      'https://gateway.example/%74eam-a',
    ]) {
      expect(await cli.credentialsFor(same), same).toMatchObject({
        baseUrl: 'https://gateway.example/team-a',
        key: KEY,
      });
    }
    for (const other of [
      'https://gateway.example/team-b',
      'https://gateway.example/team-a/sub',
      'https://gateway.example/team-ab',
      'https://gateway.example',
      'https://gateway.example/Team-A',
      'https://gateway.example/team-a/..%2Fteam-b',
      'https://gateway.example/team-a%2F..%2Fteam-b',
    ]) {
      expect(await cli.credentialsFor(other), other).toBeNull();
    }
  });

  it('says a task from a file names its service itself, and never invites the key there', async () => {
    const cli = await credentials('https://gateway.example/team-a');
    for (const endpoint of ['https://attacker.example', 'https://gateway.example/team-b']) {
      const reason = cli.missingKeyReason(endpoint, true);
      expect(reason).toMatch(/^This task was imported, and the service it names comes from/);
      expect(reason).toMatch(/comes from the imported file, not from you/);
      expect(reason).not.toMatch(/Resume it with --base-url and the key of/);
      // The file's address is never said: typed back with the key set, it would get the key.
      expect(reason).not.toContain(endpoint.slice('https://'.length));
    }
    // On the named service itself, only the key can be missing.
    const keyless = await credentials('https://gateway.example/team-a', null);
    expect(keyless.missingKeyReason('https://gateway.example/team-a/', true)).toMatch(
      /^SERVICE_API_KEY is not set\./,
    );
  });

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
      [
        null,
        KEY,
        'demo:',
        /^This task was made on Pictor's built-in demo service\. Resume it with --provider demo/,
      ],
      ['https://api.example.com', KEY, 'demo:', /built-in demo service.+--provider demo/],
      // The URL policy's own sentences, as `--base-url` gets them.
      [null, KEY, 'http://images.example.net', /^The service URL must start with https:\/\//],
      [null, KEY, 'ftp://images.example.net', /^The service URL must start with https:\/\/\.$/],
      [null, KEY, 'not a url', /^The service URL is not a valid URL\.$/],
      [
        null,
        KEY,
        'https://images.example.net:8443',
        /^This task lives on a service this command does not name\. SERVICE_API_KEY is sent only/,
      ],
      [
        'https://api.example.com',
        KEY,
        'https://images.example.net',
        /^This task lives on another service than api\.example\.com, the one SERVICE_API_KEY is for, and the key is never sent/,
      ],
      [
        'https://gateway.example/team-a',
        KEY,
        'https://gateway.example/team-b',
        /^This task lives on another service than gateway\.example\/team-a, the one SERVICE_API_KEY is for, and the key is never sent/,
      ],
      ['https://api.example.com', null, 'https://api.example.com', /^SERVICE_API_KEY is not set\./],
    ];
    for (const [baseUrl, key, endpoint, said] of cases) {
      const reason = (await credentials(baseUrl, key)).missingKeyReason(endpoint);
      expect(reason).toMatch(said);
      // The address a record gives is never said, only the one the user named.
      if (endpoint.startsWith('https://') && endpoint !== baseUrl) {
        const { host, pathname } = new URL(endpoint);
        expect(reason).not.toContain(`${host}${pathname === '/' ? '' : pathname}`);
      }
      expect(reason).not.toMatch(/no service/i);
      expect(reason).not.toContain(KEY);
    }
  });
});
