/**
 * A release build signs and notarises with what the release job's secrets hold, and an absent
 * secret is a line that says what was skipped, never an empty variable electron-builder would take
 * for a certificate.
 */
import { describe, expect, it } from 'vitest';
import { signingPlan } from '../../../electron/build/release-signing';

const written: string[] = [];
const writeKey = (text: string) => (written.push(text), '/tmp/AuthKey.p8');

describe('a release build’s signing', () => {
  it('on macOS, with every secret: signs with the Developer ID and notarises with the key file', () => {
    const plan = signingPlan(
      {
        CSC_LINK: 'base64cert',
        CSC_KEY_PASSWORD: 'pw',
        APPLE_API_KEY_P8: '-----BEGIN PRIVATE KEY-----',
        APPLE_API_KEY_ID: 'KEY1',
        APPLE_API_ISSUER: 'issuer',
      },
      'darwin',
      writeKey,
    );
    expect(plan.env).toMatchObject({ CSC_LINK: 'base64cert', APPLE_API_KEY: '/tmp/AuthKey.p8' });
    expect(plan.env['APPLE_API_KEY_P8']).toBeUndefined();
    expect(written).toEqual(['-----BEGIN PRIVATE KEY-----']);
    expect(plan.lines.join('\n')).toMatch(/notarisation: with the App Store Connect API key/);
  });

  it('on macOS, without secrets (empty, as GitHub passes them): skips both, saying so', () => {
    const plan = signingPlan(
      { CSC_LINK: '', CSC_KEY_PASSWORD: '', APPLE_API_KEY_P8: '', PATH: '/bin' },
      'darwin',
      writeKey,
    );
    expect(plan.env).toEqual({ PATH: '/bin', CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
    expect(plan.lines).toEqual([
      expect.stringMatching(/^signing: skipped: no MAC_CSC_LINK secret/),
      expect.stringMatching(/^notarisation: skipped/),
    ]);
  });

  it('on macOS, signed but without the notarisation key: signs, skips notarisation', () => {
    const plan = signingPlan({ CSC_LINK: 'cert', APPLE_API_KEY_ID: 'KEY1' }, 'darwin', writeKey);
    expect(plan.env).toEqual({ CSC_LINK: 'cert' });
    expect(plan.lines[1]).toMatch(/^notarisation: skipped: APPLE_API_KEY_P8/);
  });

  it('on Windows: signs with WIN_CSC_LINK, or says the installer is unsigned', () => {
    expect(signingPlan({ WIN_CSC_LINK: 'pfx' }, 'win32', writeKey).env).toEqual({
      WIN_CSC_LINK: 'pfx',
    });
    const unsigned = signingPlan(
      { WIN_CSC_LINK: ' ', WIN_CSC_KEY_PASSWORD: '' },
      'win32',
      writeKey,
    );
    expect(unsigned.env).toEqual({});
    expect(unsigned.lines[0]).toMatch(/^signing: skipped: no WIN_CSC_LINK secret/);
  });

  it('on Linux: says the packages are not signed here', () => {
    expect(signingPlan({}, 'linux', writeKey).lines[0]).toMatch(/deb and rpm are not signed/);
  });
});
