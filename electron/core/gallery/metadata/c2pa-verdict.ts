/**
 * The Content Credentials verdict a file's container gives before any store is read: none, a
 * store kept online, or one too big to hand to the verifier. The download's credentials step
 * (download/credentials-step.ts) asks the verifier only when this gives none.
 */
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import type { C2paPresence } from './c2pa-detect';

/**
 * A manifest store bigger than this is not handed to the verifier (`unreadable`): real ones hold
 * a few kilobytes, a few megabytes with thumbnails and ingredients; the file's own cap is 64 MiB.
 */
export const MAX_STORE_BYTES = 16 * 1024 * 1024;

/** A store kept online, at the address the file's XMP names: Pictor does not fetch it. */
const REMOTE: ContentCredentials = { state: 'unreadable', remote: true };

/**
 * The verdict `presence` gives without the store being read (none; a store online; one over the
 * cap), or `null` when the verifier must read it.
 */
export function verdictWithoutReading(presence: C2paPresence): ContentCredentials | null {
  if (!presence.found) return { state: 'none' };
  if (presence.container === 'xmp-provenance') return REMOTE;
  if (presence.bytes > MAX_STORE_BYTES) return { state: 'unreadable' };
  return null;
}
