/**
 * The core's verifier of Content Credentials, built in one place for every front: the given one
 * (the app's renderer verifier, a test's) or a worker-thread verifier against the shipped trust
 * list, handed stores fairly by service within each task's budget (fair-verifier.ts).
 */
import type { Clock } from '../../ports/clock';
import type { ContentCredentialVerifier } from '../../ports/content-credential-verifier';
import type { Logger } from '../../ports/logger';
import { C2paVerifier } from './c2pa-verifier';
import { FairVerifier } from './fair-verifier';
import { readTrustAnchors } from './trust-anchors';

/** The fair verifier over `given`, else over a C2PA verifier it owns (ended by its `dispose`). */
export async function openFairVerifier(options: {
  readonly given?: ContentCredentialVerifier;
  readonly clock: Clock;
  readonly logger?: Logger;
}): Promise<FairVerifier> {
  const { given, clock, logger } = options;
  const logged = logger ? { logger } : {};
  const inner = given ?? new C2paVerifier({ trustAnchors: await readTrustAnchors(), ...logged });
  return new FairVerifier(inner, { clock, ...logged, ownsInner: !given });
}
