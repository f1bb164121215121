/** One log entry as one line of JSON: easy to read by eye, easy to parse in a bug report. */
import type { LogFields } from '../../ports/logger';
import type { Redactor } from './redaction';
import { redactFields, redactText } from './redaction';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Longest message kept; a runaway message must not fill the file on its own. */
export const MAX_MESSAGE_CHARS = 4_000;
/** Longest string field value kept. */
const MAX_FIELD_CHARS = 2_000;

/** `true` when `level` is at or above `minimum`. */
export function isLoggable(level: LogLevel, minimum: LogLevel): boolean {
  return RANK[level] >= RANK[minimum];
}

function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * The line for one entry, newline included: `{"time":…,"level":…,"message":…,"fields":{…}}`.
 * Text is redacted before it is JSON-encoded and the encoded line once more, so a secret with
 * characters JSON escapes is caught either way.
 */
export function formatLogLine(
  time: number,
  level: LogLevel,
  message: string,
  fields: LogFields | undefined,
  redact: Redactor | null,
): string {
  const entry: Record<string, unknown> = {
    time: new Date(time).toISOString(),
    level,
    message: clip(redactText(message, redact), MAX_MESSAGE_CHARS),
  };
  if (fields) {
    const clean = redactFields(fields, redact);
    for (const [name, value] of Object.entries(clean)) {
      if (typeof value === 'string') clean[name] = clip(value, MAX_FIELD_CHARS);
    }
    if (Object.keys(clean).length > 0) entry.fields = clean;
  }
  return `${redactText(JSON.stringify(entry), redact)}\n`;
}
