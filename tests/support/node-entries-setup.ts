/**
 * Vitest global setup: bundles the CLI and the demo service once for the run
 * (tests/support/node-entries.ts); test files start them with {@link nodeEntryArgs}.
 */
import type { TestProject } from 'vitest/node';
import { buildTestEntries } from './node-entries';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding cli.js and demo-service.js. */
    pictorNodeEntries: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const built = await buildTestEntries();
  project.provide('pictorNodeEntries', built.dir);
  return built.release;
}
