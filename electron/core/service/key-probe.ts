/**
 * A key probe's questions: the probe with the key, and, when the profile's answer is one any
 * server could give (a "no such task" 404), the same request without it, which a service that
 * looks at keys refuses. Each answer is read whatever its status, after the redirects Pictor
 * follows; a redirect to where the key may not go is reported, never followed. The client sends
 * (service-client.ts); this decides what to ask and what the answers mean (key-check.ts).
 */
import { errorForBrokenBody } from './network-errors';
import { discardBody, readBodyText } from './http-response';
import {
  keyCheckOf,
  withoutKey,
  type KeyCheck,
  type KeyRedirected,
  type ProbeAnswer,
} from './key-check';
import type { ProviderProfile } from './providers/provider-profile';
import { redactText } from './request-guard';
import type { ServiceOperation } from './status-errors';
import type { SecretKeys } from '../secrets';

/** How the client sends the probe and judges its redirects (redirects.ts). */
export interface ProbeTransport {
  readonly op: ServiceOperation;
  readonly signal: AbortSignal;
  /** An answer's body is read up to this; a longer one is cut (it is only looked at). */
  readonly maxBytes: number;
  /** Sends the probe to `url`, with the key or (`keyless`) without it. */
  send(url: string, keyless: boolean): Promise<Response>;
  /** The next URL of a redirect Pictor follows, or null; throws for one it refuses. */
  follow(url: string, response: Response, hop: number): string | null;
  /** Where a redirect points when the key may not go there (see redirectedAway). */
  away(url: string, response: Response): string | null | undefined;
}

async function answerAt(
  url: string,
  keyless: boolean,
  transport: ProbeTransport,
): Promise<ProbeAnswer | KeyRedirected> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    const response = await transport.send(current, keyless);
    const away = transport.away(current, response);
    if (away !== undefined) {
      discardBody(response);
      return { verdict: 'redirected', status: response.status, to: away };
    }
    const next = transport.follow(current, response, hop);
    if (next === null) return probeAnswerOf(response, transport);
    discardBody(response);
    current = next;
  }
}

/**
 * Asks `profile`'s key probe at `url` with the call's key (and without, when its answer needs
 * that); what it quotes of the answers is scrubbed of each of `keys`.
 */
export async function runKeyProbe(
  profile: ProviderProfile,
  keys: SecretKeys,
  url: string,
  transport: ProbeTransport,
): Promise<KeyCheck> {
  const answer = await answerAt(url, false, transport);
  if ('verdict' in answer) return scrubbedTarget(answer, keys);
  const check = keyCheckOf(profile, answer, keys);
  if (check.verdict !== 'accepted' || profile.keyProbe?.refusedWithoutKey !== true) return check;
  const keyless = await answerAt(url, true, transport);
  // Sent away without a key (to a sign-in page, say): not refused, so not a key check.
  const heard =
    'verdict' in keyless ? { status: keyless.status, text: '', contentType: null } : keyless;
  return withoutKey(check, heard, keys);
}

/**
 * A redirect's target as the check reports it (Settings names it): an origin the service wrote
 * in its Location, so a key's run spelled as a host name (`https://<key>.example`) is scrubbed.
 */
function scrubbedTarget(redirected: KeyRedirected, keys: SecretKeys): KeyRedirected {
  return redirected.to === null
    ? redirected
    : { ...redirected, to: redactText(redirected.to, keys) };
}

async function probeAnswerOf(response: Response, transport: ProbeTransport): Promise<ProbeAnswer> {
  const read = await readBodyText(response, transport.maxBytes, transport.signal);
  if (read.outcome === 'broken') {
    if (transport.signal.aborted) throw read.error;
    throw errorForBrokenBody(transport.op, read.error);
  }
  return {
    status: response.status,
    text: read.text,
    contentType: response.headers.get('content-type'),
  };
}
