/**
 * Keeps secrets out of log lines. A log file is what a user attaches to a bug report, so
 * anything that looks like a credential is replaced before a line is formatted, and the key the
 * app holds is replaced wherever it appears (the app sets that through {@link secretRedactor}).
 */
import type { LogFields } from '../../ports/logger';
import { scrubKey } from '../secrets';

const REDACTED = '[redacted]';

/** Turns text into text without secrets. */
export type Redactor = (text: string) => string;

/** Field names whose values are never written, whatever they hold. */
const SECRET_FIELD_NAME = /key|authori[sz]ation|token|secret|passw(?:or)?d|cookie|credential/i;

const TEXT_PATTERNS: readonly (readonly [RegExp, string])[] = [
  // `Authorization: Bearer abc`, `authorization=Basic abc`, `"authorization":"abc"`
  [
    /(authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;&]+/gi,
    `$1${REDACTED}`,
  ],
  [/\bbearer\s+[^\s"',;&]+/gi, `Bearer ${REDACTED}`],
  // Query strings and form bodies: `?api_key=…`, `&token=…`
  [
    /((?:^|[?&;\s])(?:api[_-]?key|key|access[_-]?token|token|secret|password)=)[^&\s"']+/gim,
    `$1${REDACTED}`,
  ],
  // The usual shape of provider API keys.
  [/\bsk-[A-Za-z0-9_-]{12,}/g, REDACTED],
];

/** Replaces credential-shaped text: Authorization values, `Bearer …`, key query parameters. */
export function redactPatterns(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** `true` for a field name that names a credential (`apiKey`, `authorization`, `token`…). */
export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD_NAME.test(name);
}

/**
 * A redactor that scrubs each of `secrets` wherever it appears, in every encoding the service
 * client knows an echo of the key by (raw, escaped, percent- or entity-encoded, UTF-16, base64,
 * hex, invisible characters between its letters, any run of 12 of its characters): the same
 * search (key-echo.ts), so a line the service client would refuse is never logged as it came.
 */
export function secretRedactor(secrets: readonly string[]): Redactor {
  const kept = secrets.filter((secret) => secret !== '');
  // Every key in one search: the text's views are built once, whatever the number of keys.
  return (text) => (kept.length === 0 ? text : scrubKey(text, kept));
}

/** Applies the patterns, then `extra` (the app's current key), to one piece of text. */
export function redactText(text: string, extra: Redactor | null): string {
  const patterned = redactPatterns(text);
  return extra ? extra(patterned) : patterned;
}

/** The fields with secret-named ones replaced and every string value redacted. */
export function redactFields(
  fields: LogFields,
  extra: Redactor | null,
): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (isSecretFieldName(name)) out[name] = REDACTED;
    else out[name] = typeof value === 'string' ? redactText(value, extra) : value;
  }
  return out;
}
