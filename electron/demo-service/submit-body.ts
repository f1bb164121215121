/**
 * The body of a dialect's submit, kept in its request log entry (`RequestLogEntry.body`) as JSON
 * when it parses and is small enough, so a test can see every option a client sent, as sent.
 */
import type { BodyResult } from './http-reply';
import type { RequestLogEntry } from './types';

/** Bodies beyond this (inline images) are not kept. */
const MAX_LOGGED_BYTES = 64 * 1024;

/** `match`, once the submit's body is logged in `entry`. */
export function logSubmitBody<T extends { readonly route: string }>(
  entry: RequestLogEntry,
  match: T,
  body: BodyResult,
): T {
  if (match.route !== 'submit' || !body.ok || body.bytes.length > MAX_LOGGED_BYTES) return match;
  try {
    entry.body = JSON.parse(body.bytes.toString('utf8')) as unknown;
  } catch {
    // Not JSON (a multipart upload): nothing kept.
  }
  return match;
}
