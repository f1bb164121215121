import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { syncFingerprint } from '../../fakes/static-credentials';

describe('keyFingerprint', () => {
  it('is short, stable, hex, and differs between keys', async () => {
    const a = await keyFingerprint('sk-alice');
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(await keyFingerprint('sk-alice')).toBe(a);
    expect(await keyFingerprint('sk-bob')).not.toBe(a);
    expect(a).not.toContain('alice');
  });

  it('matches the synchronous fake used with the manual clock', async () => {
    for (const key of ['demo', 'sk-alice', 'ключ 🔑']) {
      expect(syncFingerprint(key)).toBe(await keyFingerprint(key));
    }
  });
});
