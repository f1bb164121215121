/**
 * How big the hardening suites run. `npm test` runs them sized to finish in a few minutes on two
 * cores; `npm run soak` sets PICTOR_SOAK=1 and runs the same suites at the larger size.
 */
export const SOAK = process.env['PICTOR_SOAK'] === '1';

/** The test-command size, or the soak size under `npm run soak`. */
export function scaled<T>(normal: T, soak: T): T {
  return SOAK ? soak : normal;
}

/** The command that produced a figure at the current size (for docs/RELIABILITY.md). */
export function commandFor(file: string): string {
  return SOAK ? `npm run soak -- ${file}` : `npx vitest run ${file}`;
}
