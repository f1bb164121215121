/**
 * A provider's regional API hosts, declared as patterns: `https://api.*.bfl.ai` stands for every
 * host `api.<one DNS label>.bfl.ai` (`api.eu.bfl.ai`, `api.us1.bfl.ai`, a future `api.eu2.bfl.ai`),
 * so a region the service adds does not make its tasks wait. A pattern is https only, on the
 * default port, with no user name or password and no path, and `*` is exactly one label of
 * letters, digits and inner hyphens: never a dot (`evil.com.api.x.bfl.ai`), never an IDN
 * (`xn--…`, a name that only looks like one), never a host that merely starts like it
 * (`api.bfl.ai.evil.com`). A URL is matched on what the URL parser makes of it, the host a
 * connection would go to (lower case, percent-decoding undone, the default port dropped); a
 * name with a final dot is refused rather than read as the same host.
 */

/** One regional host pattern, read once: the host is `head` + one label + `tail`. */
interface CompiledPattern {
  readonly head: string;
  readonly tail: string;
}

/** One DNS label (RFC 1123): letters and digits, hyphens only inside, at most 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The part of a pattern around `*`: dot-separated labels, as above. */
const FIXED = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A label that is an IDN's ASCII form or reserved for one (`xn--`, `ab--`): not a region name. */
function reservedLabel(label: string): boolean {
  return label.length >= 4 && label[2] === '-' && label[3] === '-';
}

/**
 * Reads a pattern such as `https://api.*.bfl.ai`.
 * @throws Error when the pattern is not one this module can honour (a profile's mistake).
 */
export function compileRegionalHost(pattern: string): CompiledPattern {
  const match = /^https:\/\/([a-z0-9.-]+)\.\*\.([a-z0-9.-]+)$/.exec(pattern);
  const head = match?.[1];
  const tail = match?.[2];
  if (!head || !tail || !FIXED.test(head) || !FIXED.test(tail) || !tail.includes('.')) {
    throw new Error(
      `Not a regional host pattern: ${pattern} (expected https://<labels>.*.<domain>).`,
    );
  }
  return { head: `${head}.`, tail: `.${tail}` };
}

function parsed(target: string | URL): URL | null {
  if (target instanceof URL) return target;
  try {
    return new URL(target);
  } catch {
    return null;
  }
}

function hostMatches(host: string, { head, tail }: CompiledPattern): boolean {
  if (!host.startsWith(head) || !host.endsWith(tail)) return false;
  const label = host.slice(head.length, host.length - tail.length);
  return LABEL.test(label) && !reservedLabel(label);
}

/**
 * True when `target` is on a host one of `patterns` stands for: https, the default port, no user
 * name or password. (The path is the caller's to check.)
 */
export function isRegionalHost(target: string | URL, patterns: readonly string[]): boolean {
  const url = parsed(target);
  if (url === null || patterns.length === 0) return false;
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false;
  return patterns.some((pattern) => hostMatches(url.hostname, compileRegionalHost(pattern)));
}

/**
 * True when `baseUrl` (checkBaseUrl's spelling) is one of the regional hosts itself, with no
 * path: the provider's own service, reached through one region.
 */
export function isRegionalBaseUrl(baseUrl: string, patterns: readonly string[]): boolean {
  const url = parsed(baseUrl);
  return url !== null && url.pathname === '/' && isRegionalHost(url, patterns);
}
