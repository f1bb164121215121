/**
 * The contract's channels with their schemas built on first use (shared/domain/lazy-schema.ts):
 * the contract is loaded by main at its start (and by the CLI's MCP server), and building every
 * channel's zod schemas there cost the start each of them, most for channels not used yet. A
 * channel's schemas are built together the first time either is read, once; the same instances
 * are returned after, so each parses exactly as the module-level schema it replaces.
 */
import { lazySchema } from '../domain/lazy-schema';

/** A request channel: its input and output schemas, built on the first read of either. */
export function channel<I, O>(
  build: () => { readonly input: I; readonly output: O },
): {
  readonly input: I;
  readonly output: O;
} {
  const built = lazySchema(build);
  return {
    get input() {
      return built().input;
    },
    get output() {
      return built().output;
    },
  };
}

/**
 * An object with one property per builder, each the builder's schema built on its first read
 * (the event channels: `events[channel]` is a schema, as it was).
 */
export function lazyEntries<T extends Record<string, () => unknown>>(
  builders: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const entries = {};
  for (const [name, build] of Object.entries(builders)) {
    Object.defineProperty(entries, name, { get: lazySchema(build), enumerable: true });
  }
  return entries as { readonly [K in keyof T]: ReturnType<T[K]> };
}
