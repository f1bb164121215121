/**
 * Vitest global setup: bundles the CLI, the demo service and the hardening tests' workers once
 * for the run (tests/support/node-entries.ts); test files start them with `nodeEntryArgs`
 * (tests/support/node-entry-args.ts).
 */
import type { TestProject } from 'vitest/node';
import { buildTestEntries } from './node-entries';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding cli.js, demo-service.js and the test workers' bundles. */
    pictorNodeEntries: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const built = await buildTestEntries();
  project.provide('pictorNodeEntries', built.dir);
  return built.release;
}
