/**
 * Turns a custom-scheme request URL into the path segments it names, refusing anything that
 * could name a file outside the served folder on any platform. The checks run on the raw text
 * (not on `new URL()`, which would quietly resolve `..` and `%2e%2e` instead of refusing them),
 * and every segment is percent-decoded exactly once.
 */
import { CONTROL_CHARACTERS, anyOf } from '../../../shared/text/control-characters';
import { windowsNameRule } from '../../../shared/text/file-names';

/** Why a request is not served. `reason` is a fixed sentence: it never echoes the request. */
export interface ProtocolRefusal {
  readonly ok: false;
  readonly status: 400 | 403 | 404;
  readonly reason: string;
}

export interface ParsedRequestPath {
  readonly ok: true;
  /** Decoded, each one checked; never empty. */
  readonly segments: readonly string[];
}

/** A refusal with its HTTP status. */
export function refuse(status: ProtocolRefusal['status'], reason: string): ProtocolRefusal {
  return { ok: false, status, reason };
}

const URL_SHAPE = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\\]*)([^?#]*)(\?[^#]*)?(#.*)?$/is;
const CONTROL = anyOf([CONTROL_CHARACTERS]);

/** Checks one decoded segment; returns a refusal or null. */
function checkSegment(segment: string): ProtocolRefusal | null {
  if (segment === '') return refuse(400, 'The path has an empty segment.');
  if (segment === '.' || segment === '..') return refuse(403, 'The path leaves the folder.');
  if (CONTROL.test(segment)) return refuse(400, 'The path contains a control character.');
  if (segment.includes('/') || segment.includes('\\')) {
    return refuse(403, 'The path contains an encoded separator.');
  }
  if (segment.includes('%')) return refuse(403, 'The path is encoded more than once.');
  if (segment.includes(':')) return refuse(403, 'The path names a drive or a stream.');
  // Windows drops trailing dots and spaces, so ".. " or "..." could mean the parent folder.
  if (/[. ]$/.test(segment)) return refuse(403, 'The path has a segment ending in a dot or space.');
  // CON.png, `CON .png` and `nul.tar.gz` open a device on Windows, not a file.
  if (windowsNameRule(segment) === 'device') return refuse(403, 'The path names a device.');
  return null;
}

function decodeSegments(rawPath: string): ParsedRequestPath | ProtocolRefusal {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return refuse(400, 'The path has malformed percent-encoding.');
    }
    const problem = checkSegment(segment);
    if (problem) return problem;
    segments.push(segment);
  }
  return { ok: true, segments };
}

/**
 * Parses `<scheme>://<host>/<path>` for the given scheme and host.
 * Refuses other schemes and hosts (including user info and ports), queries and fragments,
 * empty paths, backslashes (raw or encoded), NUL and other control characters, `.`/`..`
 * segments (raw or encoded), encoded slashes, double encoding, drive letters and Windows
 * device names.
 */
export function parseRequestPath(
  requestUrl: string,
  scheme: string,
  host: string,
  /** What an empty path means (the app's index.html); without it an empty path is refused. */
  indexFile?: string,
): ParsedRequestPath | ProtocolRefusal {
  if (CONTROL.test(requestUrl)) return refuse(400, 'The address contains a control character.');
  const match = URL_SHAPE.exec(requestUrl);
  if (!match) return refuse(400, 'The address is not a valid URL for this protocol.');
  const [, gotScheme = '', gotHost = '', path = '', query, fragment] = match;
  if (gotScheme.toLowerCase() !== scheme) return refuse(400, 'The address uses another scheme.');
  if (gotHost.toLowerCase() !== host) return refuse(400, 'The address names another host.');
  if (query !== undefined || fragment !== undefined) {
    return refuse(400, 'The address must not have a query or fragment.');
  }
  if (path.includes('\\')) return refuse(403, 'The path contains a backslash.');
  if ((path === '' || path === '/') && indexFile !== undefined) {
    return { ok: true, segments: [indexFile] };
  }
  if (!path.startsWith('/') || path === '/') return refuse(400, 'The path is empty.');
  return decodeSegments(path.slice(1));
}
