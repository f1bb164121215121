import { describe, expect, it } from 'vitest';
import { parseRequestPath } from '../../../../electron/app/protocol/request-path';

const parse = (url: string) => parseRequestPath(url, 'pictor-gallery', 'gallery');
const G = 'pictor-gallery://gallery';

describe('parseRequestPath', () => {
  it.each([
    [`${G}/a.png`, ['a.png']],
    [`${G}/2024/05/x/image-0.png`, ['2024', '05', 'x', 'image-0.png']],
    [`${G}/x/.thumbs/image-0.webp`, ['x', '.thumbs', 'image-0.webp']],
    [`${G}/a%20b/%C3%BC.png`, ['a b', 'ü.png']],
    ['PICTOR-GALLERY://GALLERY/a.png', ['a.png']],
  ])('accepts %s', (url, segments) => {
    expect(parse(url)).toEqual({ ok: true, segments });
  });

  it.each([
    // status 400: malformed or not ours
    [`${G}`, 400],
    [`${G}/`, 400],
    [`${G}//etc/passwd.png`, 400],
    [`${G}/a//b.png`, 400],
    [`${G}/a.png/`, 400],
    [`${G}/a.png?x=1`, 400],
    [`${G}/a.png?`, 400],
    [`${G}/a.png#top`, 400],
    [`${G}/a.png?../../secret.png`, 400],
    [`${G}/%zz.png`, 400],
    [`${G}/a%00.png`, 400],
    [`${G}/a\u0000.png`, 400],
    [`${G}/a\n.png`, 400],
    [`${G}/a%0a.png`, 400],
    ['pictor-gallery://evil/a.png', 400],
    ['pictor-gallery://user@gallery/a.png', 400],
    ['pictor-gallery://gallery:8080/a.png', 400],
    ['pictor-gallery://gallery.evil/a.png', 400],
    ['pictor-app://gallery/a.png', 400],
    ['file:///etc/passwd', 400],
    ['/etc/passwd', 400],
    ['pictor-gallery:/gallery/a.png', 400],
    ['', 400],
    // status 403: names something outside the folder, or a platform trick
    [`${G}/../secret.png`, 403],
    [`${G}/a/../../secret.png`, 403],
    [`${G}/./a.png`, 403],
    [`${G}/%2e%2e/secret.png`, 403],
    [`${G}/%2E%2E/secret.png`, 403],
    [`${G}/.%2e/secret.png`, 403],
    [`${G}/%2e./secret.png`, 403],
    [`${G}/%252e%252e/secret.png`, 403],
    [`${G}/%25252e%25252e/secret.png`, 403],
    [`${G}/..%2fsecret.png`, 403],
    [`${G}/..%2Fsecret.png`, 403],
    [`${G}/%2fetc%2fpasswd.png`, 403],
    [`${G}/..%5csecret.png`, 403],
    [`${G}/..%5Csecret.png`, 403],
    [`${G}/..\\secret.png`, 403],
    [`${G}\\..\\secret.png`, 403],
    [`${G}/a\\b.png`, 403],
    [`${G}/C:/Windows/win.png`, 403],
    [`${G}/C%3A%5CWindows%5Cwin.png`, 403],
    [`${G}/c:secret.png`, 403],
    [`${G}/a.png:stream`, 403],
    [`${G}/a.png.`, 403],
    [`${G}/.. /secret.png`, 403],
    [`${G}/.../secret.png`, 403],
    [`${G}/a.png%20`, 403],
    [`${G}/CON.png`, 403],
    [`${G}/nul.png`, 403],
    [`${G}/x/com1.webp`, 403],
    [`${G}/LPT9`, 403],
  ])('refuses %j with %i', (url, status) => {
    const result = parse(url);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.status).toBe(status);
      // The reason is a fixed sentence: it never repeats the request.
      expect(result.reason).not.toContain('secret');
    }
  });

  it('maps an empty path to the index file only when one is given', () => {
    expect(parseRequestPath('pictor-app://app/', 'pictor-app', 'app', 'index.html')).toEqual({
      ok: true,
      segments: ['index.html'],
    });
    expect(parseRequestPath('pictor-app://app', 'pictor-app', 'app', 'index.html')).toEqual({
      ok: true,
      segments: ['index.html'],
    });
    expect(parseRequestPath('pictor-app://app/', 'pictor-app', 'app').ok).toBe(false);
  });
});
