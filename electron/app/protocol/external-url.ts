/**
 * Which links leave the app for the user's browser, and which navigations stay inside it. The
 * window denies every new window and every navigation away from the app; a link is handed to
 * the OS browser only when it passes `checkExternalUrl`.
 */
import { isIP } from 'node:net';
import { CONTROL_CHARACTERS, anyOf } from '../../../shared/text/control-characters';
import { isLoopbackHost, isNonPublicAddress } from '../../core/service';

export type ExternalUrlCheck =
  | {
      readonly ok: true;
      /** Normalised; pass this, not the raw text, to the browser. */ readonly url: string;
    }
  | { readonly ok: false; readonly reason: string };

const MAX_LENGTH = 2_000;
/** Control characters, spaces and backslashes: the URL parser would drop or rewrite them. */
const UNSEEN_OR_REWRITTEN = anyOf([CONTROL_CHARACTERS, ' ', '\\\\']);
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/**
 * Names for the user's own network, never a public site: mDNS's `local`, `home.arpa` (RFC 8375),
 * `internal` (reserved by ICANN for private use), `localdomain`, and the names RFC 6762 (appendix
 * G) lists as used privately. A link there would send the browser, with its cookies, to a
 * router's or an intranet's page.
 */
const PRIVATE_NETWORK_SUFFIXES = [
  'local',
  'localdomain',
  'home.arpa',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
];

function refuse(reason: string): ExternalUrlCheck {
  return { ok: false, reason };
}

/** A public DNS name (IDNs arrive as punycode from the URL parser) or a public IP literal. */
function hostProblem(hostname: string): string | null {
  if (hostname === '') return 'The link has no host.';
  if (isLoopbackHost(hostname) || isNonPublicAddress(hostname)) {
    return 'The link points at this computer or a private network.';
  }
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return null;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name.length > 253) return 'The link’s host name is too long.';
  const labels = name.split('.');
  if (labels.length < 2) return 'The link’s host is not a public domain name.';
  if (!labels.every((label) => LABEL.test(label))) return 'The link’s host name is not valid.';
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return 'The link’s host name is not valid.';
  if (PRIVATE_NETWORK_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`)))
    return 'The link points at a local network name.';
  return null;
}

/**
 * Accepts only `https:` links with a public host and no user name or password. Refuses
 * control characters, spaces and backslashes outright (the URL parser would quietly drop or
 * rewrite them, so what the user saw is not what would open).
 */
export function checkExternalUrl(raw: string): ExternalUrlCheck {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) {
    return refuse('The link is empty or too long.');
  }
  if (UNSEEN_OR_REWRITTEN.test(raw)) {
    return refuse('The link contains spaces, control characters or backslashes.');
  }
  const url = URL.parse(raw);
  if (url === null) return refuse('The link is not a valid address.');
  if (url.protocol !== 'https:') return refuse('Only https:// links open in the browser.');
  if (url.username !== '' || url.password !== '') {
    return refuse('The link contains a user name or password.');
  }
  const problem = hostProblem(url.hostname);
  return problem === null ? { ok: true, url: url.href } : refuse(problem);
}

/**
 * True when `target` is on the app's own origin (same scheme, host and port as `appUrl`).
 * Compared by parts because custom schemes have an opaque `URL.origin` ("null").
 */
export function isAppNavigation(target: string, appUrl: string): boolean {
  const to = URL.parse(target);
  const app = URL.parse(appUrl);
  if (to === null || app === null) return false;
  return (
    to.protocol === app.protocol &&
    to.host.toLowerCase() === app.host.toLowerCase() &&
    to.host !== '' &&
    to.username === '' &&
    to.password === ''
  );
}
