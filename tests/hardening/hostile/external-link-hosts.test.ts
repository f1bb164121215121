/**
 * Links a compromised page (window.open, the guarded new-window handler) or a hostile feed could
 * hand to the user's browser, aimed at the user's own network: the browser would send its
 * cookies to a router's or an intranet's admin page (a request the user never meant). IP
 * literals of private ranges and `.local` were refused already; the names reserved for private
 * networks are the same class: `home.arpa` (RFC 8375), `.internal` (reserved by ICANN for
 * private use), `localdomain`, and the names RFC 6762 (appendix G) lists as used privately
 * (intranet, internal, private, corp, home, lan). Any case, with or without the final dot, at
 * any depth. Public names that merely contain them are still links.
 */
import { describe, expect, it } from 'vitest';
import { checkExternalUrl } from '../../../electron/app/protocol/external-url';

describe('links into the user’s own network, by name', () => {
  it.each([
    'https://router.home.arpa/admin',
    'https://home.arpa/',
    'https://nas.internal/',
    'https://a.b.INTERNAL./x',
    'https://host.localdomain/',
    'https://wiki.intranet/',
    'https://files.private/',
    'https://mail.corp/',
    'https://tv.home/',
    'https://printer.lan/',
    'https://printer.local/',
    'https://Printer.Local./',
  ])('refuses %s', (url) => {
    const result = checkExternalUrl(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toBe('The link points at a local network name.');
  });

  it.each([
    'https://internal.example.com/',
    'https://home.example.org/',
    'https://lan.party/',
    'https://corp.example/',
    'https://arpa.example.net/home',
    'https://local-news.com/',
  ])('still opens %s', (url) => {
    expect(checkExternalUrl(url).ok).toBe(true);
  });
});
