/**
 * A schema built on its first use rather than when its module is imported. Building a large zod
 * schema costs its own CPU and, the first time in a process, compiling zod's functions; a command
 * of the CLI that never parses with it (the history's common records are checked without zod:
 * shared/domain/record-check.ts) should not pay for it. The schema is built once and the
 * same instance returned after, so it behaves as the module-level constant it replaces.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}
