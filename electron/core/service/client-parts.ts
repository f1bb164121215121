/**
 * The service client's small pure parts (service-client.ts): option checks, the body limit of
 * each answer, the status a profile's own error kind stands for.
 */
import { base64Length } from './inline-image';
import type { ProviderProfile } from './providers/provider-profile';
import type { ServiceErrorKind } from './service-error';

/** The status a provider's own error kind stands for (see StatusAnswer.meaning). */
export const KIND_STATUS: Partial<Record<ServiceErrorKind, number>> = {
  auth: 401,
  credits: 402,
  not_found: 404,
  rate_limited: 429,
  bad_request: 400,
  server: 500,
};

/** `value`, or `fallback` when absent. @throws RangeError when it is negative or not finite. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative number.`);
  return value;
}

/**
 * The body limit of a profile's `answer`: `maxBytes`, larger by one inline image of `maxInline`
 * bytes in base64 where the profile says its images may come inline in that answer (a 1,024-pixel
 * PNG alone is over a megabyte), so no other answer can grow to tens of megabytes.
 */
export function answerLimit(
  profile: ProviderProfile,
  answer: 'poll' | 'result',
  maxBytes: number,
  maxInline: number,
): number {
  return profile.inlineResults === answer ? maxBytes + base64Length(maxInline) : maxBytes;
}
