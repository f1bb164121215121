/**
 * Keys stored by earlier versions, bound to the base URL they were being sent to, once, at start.
 * Nothing is widened: a key goes to no base URL its version would not have sent it to.
 */
import type { Logger } from '../../ports/logger';
import { serviceBaseUrl } from '../service';

/** What the migration needs of the key vault. */
export interface LegacyKeySource {
  hasKey(): boolean;
  boundBaseUrl(): string | null | undefined;
  legacyOrigin(): string | null | undefined;
  bindBaseUrl(baseUrl: string | null): unknown;
}

/**
 * The base URL an earlier version's key belongs to, given the service address in Settings:
 * - bound to an origin: that origin's base URL in Settings when Settings is on that origin (the
 *   address it was being sent to), else the origin itself (its root, the one address on it the
 *   key can be told apart by); a path change from there asks the user like any other;
 * - bound to none yet (`null`): still none;
 * - from before any binding: the address then in use (or none).
 */
export function legacyBaseUrl(
  legacy: string | null | undefined,
  settingsBaseUrl: string,
): string | null {
  const current = serviceBaseUrl(settingsBaseUrl);
  if (legacy === undefined) return current;
  if (legacy === null) return null;
  const origin = serviceBaseUrl(legacy);
  if (origin === null) return null;
  return current !== null && new URL(current).origin === new URL(origin).origin ? current : origin;
}

/** Binds a key stored by an earlier version (see {@link legacyBaseUrl}); no-op otherwise. */
export function bindLegacyKey(
  vault: LegacyKeySource,
  settingsBaseUrl: string,
  logger: Logger,
): void {
  if (!vault.hasKey() || vault.boundBaseUrl() !== undefined) return;
  try {
    vault.bindBaseUrl(legacyBaseUrl(vault.legacyOrigin(), settingsBaseUrl));
  } catch (error) {
    // The key stays as it was: unbound to a base URL, so it is sent nowhere until entered again.
    logger.warn('stored key could not be bound to its service', { error: String(error) });
  }
}
