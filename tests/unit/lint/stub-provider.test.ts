/**
 * Adding a service is a profile plus at most five product files (docs/ARCHITECTURE.md, "Adding a
 * service"). A stub provider is added to an overlay of the product sources (its id in
 * PROVIDER_IDS, its profile file; tests/support/added-service.ts) and the product files the
 * compiler then asks to change are counted. npm test's typecheck finds them in a program reusing
 * its own trees and records them (tests/support/dead-exports-cache.ts); for files changed since,
 * the test finds them itself.
 */
import { describe, expect, it } from 'vitest';
import { filesAskedForAStub } from '../../support/added-service';
import { recordedFact } from '../../support/dead-exports-cache';

const ROOT = process.cwd();
/** The most product files a new service may need besides its own profile. */
const MOST_FILES = 5;
/** A program of the product files, checked synchronously: no wait, only work (minutes at load). */
const PROGRAM_MS = 900_000;

describe('adding a service', () => {
  it(
    `is a profile plus at most ${MOST_FILES} product files the compiler asks for`,
    () => {
      const asked = recordedFact(ROOT, 'addedService') ?? filesAskedForAStub(ROOT);
      // The stub is really missing somewhere: the registry of facts names every provider.
      expect(asked).toContain('shared/domain/providers.ts');
      expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(MOST_FILES);
    },
    PROGRAM_MS,
  );
});
