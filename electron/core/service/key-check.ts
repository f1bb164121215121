/**
 * What a profile's key probe found (ServiceClient.probeKey), read from the answer whatever its
 * status: the service's own answer that it took the key, or why not. "Accepted" only for the
 * answer the profile reads as its service's (Replicate's account, BFL's credits, a "no such
 * task" in the service's shape…); any other 200 or 404 is not this service, a web page is named
 * as one, and 401/403, 402, 429 and 5xx are each what they are. The detail is cleaned and never
 * the key; the account's balance is kept only when it is a value Pictor keeps (checked as a
 * reported cost is: a negative, NaN-like or huge amount is dropped).
 */
import { checkReportedCost, type CostUnit } from '../../../shared/domain/task-cost';
import { cleanText } from '../../../shared/service/wire';
import { bodyExcerpt, parseJson } from './http-response';
import type { KeyProbe, ProviderProfile } from './providers/provider-profile';
import { redactText } from './request-guard';
import type { SecretKeys } from '../secrets';

/** The answer to a probe as the client read it: any status, its body (cut at the usual limit). */
export interface ProbeAnswer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string | null;
}

/** The service's own answer: it took the key. */
export interface KeyAccepted {
  readonly verdict: 'accepted';
  readonly status: number;
  /** What the answer tells about the account (Replicate's user name, BFL's credits). */
  readonly detail?: string;
  /** What the account has left, when the answer said it in a value Pictor keeps. */
  readonly balance?: { readonly micros: number; readonly unit: CostUnit };
}

/** Any other answer: what it is, with its status and a short excerpt of what it said. */
export interface KeyNotAccepted {
  readonly verdict:
    /** The key was refused (401/403, or the profile's own word for it). */
    | 'refused'
    /** The key is known, but the account has no credits (402, or the profile's word). */
    | 'no_credits'
    /** Busy (429): it asked Pictor to come back later. */
    | 'busy'
    /** A failure of the service's own (5xx). */
    | 'trouble'
    /** A web page answered, not the service's API. */
    | 'web_page'
    /** Something answered, but not as this service does. */
    | 'not_this_service'
    /** It answered as the service would, and the same without any key: it checks no key. */
    | 'keyless';
  readonly status: number;
  readonly excerpt: string;
}

/** Redirected to another address, where the key may not go: not followed. */
export interface KeyRedirected {
  readonly verdict: 'redirected';
  readonly status: number;
  /** Where it pointed: an origin (or a scheme), never a path or query; null when not shown. */
  readonly to: string | null;
}

export type KeyCheck = KeyAccepted | KeyNotAccepted | KeyRedirected;

const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
const HTML_START = /^\s*(<!doctype\s+html|<html[\s>])/i;

/** A web page: said so by its type, or by how it starts. */
function isWebPage(answer: ProbeAnswer): boolean {
  return HTML_TYPE.test(answer.contentType ?? '') || HTML_START.test(answer.text);
}

function accepted(
  read: ReturnType<KeyProbe['read']>,
  status: number,
  keys: SecretKeys,
): KeyAccepted {
  const detail = read.detail && redactText(cleanText(read.detail), keys);
  const balance = read.balance ? checkReportedCost(read.balance) : undefined;
  return {
    verdict: 'accepted',
    status,
    ...(detail ? { detail } : {}),
    ...(balance?.ok ? { balance: { micros: balance.cost.micros, unit: balance.cost.unit } } : {}),
  };
}

/** What a status says by itself (or the profile's own word for it), when the body is not read. */
function verdictOfStatus(
  profile: ProviderProfile,
  answer: ProbeAnswer,
  json: { ok: true; value: unknown } | { ok: false },
): KeyNotAccepted['verdict'] {
  const { status } = answer;
  const kind = json.ok && status >= 300 ? profile.errorKind?.(status, json.value) : undefined;
  if (kind === 'auth' || status === 401 || status === 403) return 'refused';
  if (kind === 'credits' || status === 402) return 'no_credits';
  if (kind === 'rate_limited' || status === 429) return 'busy';
  if (kind === 'server' || (status >= 500 && status <= 599)) return 'trouble';
  return isWebPage(answer) ? 'web_page' : 'not_this_service';
}

/**
 * What the answer to `profile`'s key probe says (the keyless check, when the probe needs one, is
 * the client's: {@link withoutKey}).
 */
export function keyCheckOf(
  profile: ProviderProfile,
  answer: ProbeAnswer,
  keys: SecretKeys,
): KeyCheck {
  const probe = profile.keyProbe;
  const json = parseJson(answer.text);
  if (probe && json.ok && probe.statuses.includes(answer.status)) {
    const read = probe.read(json.value, answer.status);
    if (read.accepted) return accepted(read, answer.status, keys);
  }
  return {
    verdict: verdictOfStatus(profile, answer, json),
    status: answer.status,
    excerpt: redactText(bodyExcerpt(answer.text), keys),
  };
}

/**
 * An accepted check, after the same request went without the key: it stands when that was
 * refused (401/403); otherwise the service answers without looking at any key.
 */
export function withoutKey(check: KeyAccepted, keyless: ProbeAnswer, keys: SecretKeys): KeyCheck {
  if (keyless.status === 401 || keyless.status === 403) return check;
  // The first answer heard the key: a hostile service may say it back in the second.
  const said = redactText(bodyExcerpt(keyless.text), keys);
  return {
    verdict: 'keyless',
    status: check.status,
    excerpt: `Asked without any key, it answered HTTP ${keyless.status} instead of refusing: ${said}`,
  };
}
