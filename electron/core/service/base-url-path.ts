/**
 * The key is bound to a base URL: an origin and a path prefix (`https://gateway.example/team-a`),
 * because one origin can serve several tenants under different paths. These helpers spell a path
 * one way only, and decide whether a request URL stays under a base URL as any server on the way
 * could read it: WHATWG has already removed `.`/`..` segments (also `%2e`), but a gateway that
 * decodes `%2F` before routing turns `/team-a/..%2Fteam-b` into `/team-b`.
 */

/** RFC 3986 unreserved characters: percent-encoding them changes nothing (§6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** How many layers of percent-encoding are undone when looking for hidden segments. */
const DECODE_LAYERS = 4;

/**
 * `path` with its percent-encoding in one form: unreserved characters decoded, every other
 * escape in upper case (`%2f` → `%2F`, `%7E` → `~`). Nothing else changes.
 */
export function normalisePercentEncoding(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape: string, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : escape.toUpperCase();
  });
}

/** `text` with up to DECODE_LAYERS layers of percent-encoding undone (malformed ones left). */
function decodeLayers(text: string): string {
  let current = text;
  for (let layer = 0; layer < DECODE_LAYERS; layer += 1) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_escape: string, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * A segment's name as a server that reads RFC 3986 path parameters sees it: what comes before its
 * first `;` (Tomcat, Jetty and servlet containers drop `;jsessionid=…` and the like, so `..;x`
 * is `..` to them and a step back).
 */
function segmentName(part: string): string {
  const semicolon = part.indexOf(';');
  return semicolon < 0 ? part : part.slice(0, semicolon);
}

/**
 * True when a server that decodes the path (once or a few times), treats `/` and `\` as
 * separators and drops a segment's `;parameters` would find a `.` or `..` segment in it: a way out
 * of the prefix it was sent under.
 */
export function hasHiddenDotSegment(path: string): boolean {
  return decodeLayers(path)
    .split(/[/\\]/)
    .some((part) => {
      const name = segmentName(part);
      return name === '.' || name === '..';
    });
}

/**
 * True when `target` is under `baseUrl` (a base URL as checkBaseUrl returns it): the same origin,
 * no user name or password, a path that starts with the base's path and a `/`, and nothing after
 * that prefix a decoding server could read as a step back out of it.
 */
export function isUnderBase(target: string | URL, baseUrl: string): boolean {
  const url = URL.parse(target);
  const base = URL.parse(baseUrl);
  if (url === null || base === null) return false;
  if (url.origin !== base.origin || url.username || url.password) return false;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/`;
  const path = normalisePercentEncoding(url.pathname);
  if (!path.startsWith(prefix)) return false;
  return !hasHiddenDotSegment(path.slice(prefix.length));
}
