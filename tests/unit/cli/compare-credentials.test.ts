/**
 * `pictor compare`'s keys (electron/cli/compare-credentials.ts): each provider's own
 * PICTOR_KEY_<PROVIDER>, bound to that provider's --base-url or its own address and given for
 * that address only; SERVICE_API_KEY never read; two providers on one address refused; the
 * sentence for a target without a key names the variable, never a key.
 */
import { describe, expect, it } from 'vitest';
import { CompareCredentials } from '../../../electron/cli/compare-credentials';
import { keyVariable } from '../../../electron/cli/key-variables';
import { UsageError } from '../../../electron/core/command-line/command-line';

const FAL = 'fal-key-0b1c2d3e';
const BFL = 'bfl-key-4f5a6b7c';

describe('CompareCredentials', () => {
  it('gives each provider’s key to its own address only', async () => {
    const credentials = await CompareCredentials.create(
      { PICTOR_KEY_FAL: FAL, PICTOR_KEY_BFL: ` ${BFL} \n`, SERVICE_API_KEY: 'sk-never-read' },
      ['fal', 'bfl', 'replicate'],
      new Map([['bfl', 'http://127.0.0.1:4555']]),
    );
    expect(await credentials.credentialsFor('https://queue.fal.run')).toMatchObject({
      provider: 'fal',
      key: FAL,
      baseUrl: 'https://queue.fal.run',
    });
    // BFL's key goes to the address given for it, not to BFL's own.
    expect(await credentials.credentialsFor('http://127.0.0.1:4555')).toMatchObject({
      provider: 'bfl',
      key: BFL,
    });
    expect(await credentials.credentialsFor('https://api.bfl.ai')).toBeNull();
    // Replicate has no PICTOR_KEY_REPLICATE: SERVICE_API_KEY is not taken in its place.
    expect(await credentials.credentialsFor('https://api.replicate.com')).toBeNull();
    // Another origin, a lookalike host or a bad address gets nothing.
    for (const endpoint of ['https://queue.fal.run.evil.test', 'http://queue.fal.run', 'nonsense'])
      expect(await credentials.credentialsFor(endpoint)).toBeNull();
    const reason = credentials.missingKeyReason('https://api.replicate.com');
    expect(reason).toContain(keyVariable('fal'));
    for (const key of [FAL, BFL, 'sk-never-read']) expect(reason).not.toContain(key);
  });

  it('refuses two providers whose keys would go to one address', async () => {
    const created = CompareCredentials.create(
      { PICTOR_KEY_FAL: FAL, PICTOR_KEY_BFL: BFL },
      ['fal', 'bfl'],
      new Map([
        ['fal', 'http://127.0.0.1:4555'],
        ['bfl', 'http://127.0.0.1:4555/'],
      ]),
    );
    await expect(created).rejects.toBeInstanceOf(UsageError);
    await expect(created).rejects.toThrow(/same address/);
    await expect(created).rejects.not.toThrow(new RegExp(`${FAL}|${BFL}`));
  });

  it('binds nothing for a provider whose variable is empty or unset', async () => {
    const credentials = await CompareCredentials.create(
      { PICTOR_KEY_FAL: '   ' },
      ['fal', 'bfl'],
      new Map(),
    );
    expect(await credentials.credentialsFor('https://queue.fal.run')).toBeNull();
    expect(await credentials.credentialsFor('https://api.bfl.ai')).toBeNull();
  });
});
