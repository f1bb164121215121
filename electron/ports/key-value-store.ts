/**
 * A small JSON file of named values (electron-store in the app, a map in tests). Settings and the
 * key vault each get their own, so a damaged settings file never touches the key.
 */
export interface KeyValueStore {
  /** The file behind the store, for messages ("a copy was kept at …"). */
  readonly path: string;
  /**
   * The value stored under `key`, or `undefined`. Not yet parsed: callers run it through a schema.
   * @throws when the file exists but cannot be read as JSON (see {@link moveAside}).
   */
  get(key: string): unknown;
  /** @throws when the file cannot be written, or cannot be read as JSON. */
  set(key: string, value: unknown): void;
  /** @throws like {@link set}. */
  delete(key: string): void;
  /**
   * Renames the file to `<name>.<suffix>.json` beside it (a damaged file kept for the user);
   * the store is empty afterwards. Returns the new path, or `null` when there was no file.
   * @throws when the rename fails.
   */
  moveAside(suffix: string): string | null;
  /**
   * Copies the file to `<name>.<suffix>.json` beside it (the old file kept before a repair
   * rewrites it); the file and the store are unchanged. Returns the copy's path, or `null` when
   * there was no file.
   * @throws when the copy fails (none is left then).
   */
  copyAside(suffix: string): string | null;
}

/** The `moveAside` suffix for a damaged file: `settings.corrupt-2024-05-01T10-20-30-000Z.json`. */
export function damagedFileSuffix(now: number): string {
  return `corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}
