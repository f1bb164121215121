/**
 * The ports no `fetch` connects to: the Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#bad-port),
 * which undici (the CLI) and Chromium (the app) both refuse before any connection is made, because
 * other protocols (mail, IRC, X11, printing…) listen there. A base URL on one of them can never
 * reach a service, so the client says so before it asks the transport, in words, instead of
 * leaving it to the transport's "bad port" (or "net::ERR_UNSAFE_PORT").
 */

// prettier-ignore
const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/**
 * The port of `url` when it is one `fetch` refuses (an http(s) URL with an explicit bad port),
 * else null. A URL that does not parse is not this check's business (the URL policy's).
 */
export function blockedPortOf(url: string): number | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const port = parsed.port === '' ? null : Number(parsed.port);
  return port !== null && BAD_PORTS.has(port) ? port : null;
}
