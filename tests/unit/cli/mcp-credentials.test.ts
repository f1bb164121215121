/**
 * `pictor mcp`'s keys (electron/cli/mcp-credentials.ts): the server's own service keeps
 * SERVICE_API_KEY for its address alone; every other provider's PICTOR_KEY_<PROVIDER> goes to
 * that provider's own address alone; the server's own address never gets another provider's key,
 * even when a variable for its kind of service is set too.
 */
import { describe, expect, it } from 'vitest';
import { EnvCredentials } from '../../../electron/cli/env-credentials';
import { McpCredentials } from '../../../electron/cli/mcp-credentials';

const OWN = 'sk-own-7Hq2Lm9Vx4';
const FAL = 'fal-key-3Rt8Wz1Kp6';
const BFL = 'bfl-key-5Nc0Jy7Df2';
const OWN_URL = 'http://127.0.0.1:4777';

async function keys(env: NodeJS.ProcessEnv, provider: 'pictor' | 'fal', baseUrl = OWN_URL) {
  const own = await EnvCredentials.create(env, baseUrl, provider);
  return McpCredentials.create(env, own);
}

describe('McpCredentials', () => {
  it('binds each key to its own address, the server’s first', async () => {
    const env = { SERVICE_API_KEY: OWN, PICTOR_KEY_FAL: FAL, PICTOR_KEY_BFL: BFL };
    const credentials = await keys(env, 'pictor');
    expect(await credentials.credentialsFor(OWN_URL)).toMatchObject({ key: OWN });
    expect(await credentials.credentialsFor('https://queue.fal.run')).toMatchObject({
      provider: 'fal',
      key: FAL,
    });
    expect(await credentials.credentialsFor('https://api.bfl.ai')).toMatchObject({ key: BFL });
    expect(await credentials.credentialsFor('https://api.replicate.com')).toBeNull();
    for (const endpoint of ['https://queue.fal.run.evil.test', 'http://127.0.0.1:4778', 'x'])
      expect(await credentials.credentialsFor(endpoint)).toBeNull();
    expect(credentials.currentEndpoint()).toBe(OWN_URL);
  });

  it('leaves the server’s own kind of service to SERVICE_API_KEY', async () => {
    // The server runs on fal at a proxy: PICTOR_KEY_FAL is not read, so fal's own address gets nothing.
    const credentials = await keys({ SERVICE_API_KEY: OWN, PICTOR_KEY_FAL: FAL }, 'fal');
    expect(await credentials.credentialsFor(OWN_URL)).toMatchObject({ key: OWN, provider: 'fal' });
    expect(await credentials.credentialsFor('https://queue.fal.run')).toBeNull();
  });

  it('gives the server’s own address no other key when SERVICE_API_KEY is not set', async () => {
    // The own address is fal's: the compare key must not stand in for the missing server key.
    const credentials = await keys({ PICTOR_KEY_FAL: FAL }, 'pictor', 'https://queue.fal.run');
    expect(await credentials.credentialsFor('https://queue.fal.run')).toBeNull();
    const reason = String(credentials.missingKeyReason('https://queue.fal.run'));
    expect(reason).not.toContain(FAL);
  });
});
