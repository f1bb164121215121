/**
 * A value the window keeps in its localStorage (display choices, a draft): read through its
 * schema, so an unreadable or edited one falls back (the schema's own `.catch` fields fall back
 * alone); storage that cannot be read or written means the fallback, and nothing is kept.
 */
import type { z } from 'zod';

export function readStored<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return fallback;
    const json: unknown = JSON.parse(text);
    const parsed = schema.safeParse(typeof json === 'object' && json !== null ? json : {});
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Not kept: the fallback comes back at the next start, which is harmless.
  }
}
