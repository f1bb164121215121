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

/** What {@link lazyEntries} makes of an entry: a builder's schema, or a schema given as it is. */
type Built<E> = E extends () => infer S ? S : E;

/**
 * An object with one property per entry, each a builder's schema built on its first read (the
 * event channels: `events[channel]` is a schema, as it was). An entry that is not a function is
 * kept as it is: built already (tests/unit/ipc/lazy-contract.test.ts fails on one in the contract).
 */
export function lazyEntries<T extends Record<string, unknown>>(
  entries: T,
): { readonly [K in keyof T]: Built<T[K]> } {
  const built = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (typeof entry === 'function') {
      Object.defineProperty(built, name, {
        get: lazySchema(entry as () => unknown),
        enumerable: true,
      });
    } else {
      Object.defineProperty(built, name, { value: entry, enumerable: true });
    }
  }
  return built as { readonly [K in keyof T]: Built<T[K]> };
}
