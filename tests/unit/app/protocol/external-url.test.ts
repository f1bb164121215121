import { describe, expect, it } from 'vitest';
import { checkExternalUrl, isAppNavigation } from '../../../../electron/app/protocol/external-url';

describe('checkExternalUrl', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['https://docs.example.com/a/b?c=d#e', 'https://docs.example.com/a/b?c=d#e'],
    ['https://EXAMPLE.com:8443/x', 'https://example.com:8443/x'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['https://example.com./', 'https://example.com./'],
    ['https://8.8.8.8/', 'https://8.8.8.8/'],
    ['https://[2606:4700::1111]/', 'https://[2606:4700::1111]/'],
  ])('accepts %s as %s', (raw, url) => {
    expect(checkExternalUrl(raw)).toEqual({ ok: true, url });
  });

  it.each([
    ['http://example.com'],
    ['javascript:alert(1)'],
    ['file:///etc/passwd'],
    ['data:text/html,<script>alert(1)</script>'],
    ['mailto:someone@example.com'],
    ['smb://server/share'],
    ['pictor-app://app/index.html'],
    ['ms-settings:privacy'],
    ['https://user:pass@example.com/'],
    ['https://user@example.com/'],
    ['https://:pass@example.com/'],
    ['https://localhost/'],
    ['https://app.localhost/'],
    ['https://127.0.0.1/'],
    ['https://[::1]/'],
    ['https://10.0.0.1/'],
    ['https://192.168.1.1/'],
    ['https://169.254.169.254/latest/meta-data'],
    ['https://[::ffff:192.168.0.1]/'],
    ['https://intranet/'],
    ['https://printer.local/'],
    ['https://-bad-.example.com/'],
    ['https://exa_mple.com/'],
    ['https://example.123/'],
    ['https:\\\\example.com'],
    ['https://example.com\\@evil.com'],
    [' https://example.com'],
    ['https://example.com/\n'],
    ['https://exa\tmple.com/'],
    ['https://example.com/a b'],
    ['https://'],
    ['not a url'],
    [''],
    [`https://example.com/${'a'.repeat(2_000)}`],
  ])('refuses %j', (raw) => {
    const result = checkExternalUrl(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/\.$/);
  });

  it('refuses what is not a string', () => {
    expect(checkExternalUrl(42 as unknown as string).ok).toBe(false);
  });
});

describe('isAppNavigation', () => {
  const app = 'pictor-app://app/index.html';
  it.each([
    ['pictor-app://app/index.html', true],
    ['pictor-app://app/other.html#x', true],
    ['PICTOR-APP://APP/', true],
    ['pictor-app://evil/index.html', false],
    ['pictor-app://user@app/index.html', false],
    ['pictor-gallery://gallery/a.png', false],
    ['https://example.com/', false],
    ['file:///index.html', false],
    ['about:blank', false],
    ['not a url', false],
  ])('%s → %s', (target, expected) => {
    expect(isAppNavigation(target, app)).toBe(expected);
  });

  it('compares host and port for an http dev server', () => {
    expect(isAppNavigation('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isAppNavigation('http://localhost:5174/x', 'http://localhost:5173/')).toBe(false);
  });
});
