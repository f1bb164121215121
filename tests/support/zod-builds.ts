/**
 * Counts the zod schemas built while a function runs, by their type: zod gives every schema it
 * builds its internals with one `Object.defineProperty(schema, '_zod', …)`. For the tests that a
 * module builds its schemas on first use (shared/domain/lazy-schema.ts), not when it is loaded.
 */
export async function schemasBuiltBy(load: () => Promise<unknown>): Promise<string[]> {
  const built: string[] = [];
  const define = Object.defineProperty;
  const recorder = function <T>(target: T, key: PropertyKey, descriptor: PropertyDescriptor): T {
    const value = descriptor.value as { def?: { type?: string } } | undefined;
    if (key === '_zod' && value?.def !== undefined) built.push(String(value.def.type));
    return define(target, key, descriptor);
  };
  Object.defineProperty = recorder as typeof Object.defineProperty;
  try {
    await load();
  } finally {
    Object.defineProperty = define;
  }
  return built;
}
