/**
 * The seeds a randomised test runs: its fixed ones under `npm test` (the seeds that once found a
 * fault there, so every commit replays their plans), or what its seed variable asks: a number
 * replays that seed alone, `random` draws one (a new plan, printed on failure). The soak size
 * (`npm run soak`) draws one unless a seed is given.
 */
import { SOAK } from '../hardening/support/scale';

/** A seed for `seededRandom` (electron/demo-service/prng.ts), drawn at random. */
function drawn(): number {
  return Math.floor(Math.random() * 1e9);
}

/**
 * The seeds to run for `asked` (the test's seed variable) and `fixed` (its seeds under npm test).
 * @throws when `asked` is neither a whole number nor `random`.
 */
export function seedsToRun(asked: string | undefined, fixed: readonly number[]): number[] {
  if (asked === 'random') return [drawn()];
  if (asked !== undefined && asked !== '') {
    const seed = Number(asked);
    if (!Number.isSafeInteger(seed)) throw new Error(`A seed is a whole number or random.`);
    return [seed];
  }
  return SOAK ? [drawn()] : [...fixed];
}
