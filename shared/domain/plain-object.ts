/**
 * Plain objects read from anywhere (parsed JSON, a record's part): told from null and arrays, and
 * checked by their own keys before a schema copies them.
 */
import { z } from 'zod';

/** An object that is neither null nor an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An object as JSON makes one (its prototype Object's, or none): not an array, and no instance of
 * a class (a Date, a Uint8Array whose every byte would be a value to walk).
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * A plain object whose own keys all pass `keyOk`, checked on the object as read, before a record
 * schema copies it: a `__proto__` key (an own key of parsed JSON) would otherwise be dropped in
 * silence, not refused. With `maxKeys`, more keys than that fail too.
 */
export function ownKeysSchema(
  keyOk: (key: string) => boolean,
  options: { readonly maxKeys?: number; readonly message?: string } = {},
) {
  const { maxKeys = Number.POSITIVE_INFINITY, message } = options;
  return z.custom<object>(
    (value) =>
      isPlainObject(value) &&
      Object.keys(value).length <= maxKeys &&
      Object.keys(value).every(keyOk),
    message,
  );
}
