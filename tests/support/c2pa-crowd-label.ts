/**
 * What the crowded stores (c2pa-crowded.ts) and the library's stand-in (selective-c2pa-worker.ts)
 * agree on. No imports: the stand-in runs under Node's own type stripping.
 */

/** The label every assertion a crowded store adds starts with. */
export const CROWD_LABEL = 'org.pictor.crowd.';

/** What the stand-in answers for an honest image. */
export const SELECTIVE_VERDICT = {
  state: 'valid',
  signer: 'Honest Test Signer',
  trusted: false,
  aiGenerated: true,
} as const;
