import { createHash, randomBytes } from 'node:crypto';

/** A 32-bit hash of the parts (order matters), for seeding per-task and per-prompt choices. */
export function hashParts(...parts: (string | number)[]): number {
  const digest = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
  return digest.readUInt32LE(0);
}

/**
 * The seed a task's answer says its images were made with (today's contract's `seed`, fal's
 * `seed`, BFL's `result.seed`): drawn from the service's seed and the task id, so the same task
 * (a recalled one too) always says the same seed.
 */
export function taskSeed(seed: number, taskId: string): number {
  return hashParts(seed, 'task seed', taskId);
}

/** A number in [0, 1) derived from the parts: the same parts give the same number. */
export function hashUnit(...parts: (string | number)[]): number {
  return hashParts(...parts) / 2 ** 32;
}

/** mulberry32: a small, fast, seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Unguessable identifiers come from the OS's CSPRNG, never from the seed. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
