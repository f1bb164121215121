/**
 * The seed a service says it made a task's images with (fal's `seed`, BFL's `result.seed`,
 * Replicate's `input.seed`, today's contract's `seed`: docs/SERVICE.md). Not in every answer and
 * never needed: a value Pictor cannot believe is dropped, never a reason to doubt the task.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';

/**
 * A seed as a task record keeps it: a whole number from 0 to 2^53 − 1 (exact in JSON). Built on
 * first use (shared/domain/lazy-schema.ts), with the record's schema.
 */
export const seedSchema = lazySchema(() => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

/** A new seed, as the services draw theirs (0 to 2^31 − 1): a task's "Vary". */
export function drawSeed(): number {
  const [drawn = 0] = crypto.getRandomValues(new Uint32Array(1));
  return drawn % 2_147_483_648;
}

/** The decimal text of a seed, as a service may send one: digits only, no leading zero. */
const SEED_TEXT = /^(0|[1-9]\d{0,15})$/;

/**
 * The seed in `value`: a whole number from 0 to 2^53 − 1, or the decimal text of one (`"12345"`,
 * as services that keep 64-bit seeds send them). Anything else (negative, a fraction, beyond 2^53
 * − 1 where a number can no longer say it exactly, an exponent, spaces, a sign) is undefined.
 */
export function readSeed(value: unknown): number | undefined {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && SEED_TEXT.test(value)
        ? Number(value)
        : undefined;
  return seedSchema().safeParse(number).success ? number : undefined;
}
