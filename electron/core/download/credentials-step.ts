/**
 * The download's Content Credentials step: is there a C2PA manifest store in the file's
 * container (metadata/c2pa-detect.ts), and if so, what does it say (the verifier port, run where
 * hostile bytes cost nothing). What it finds decides where the XMP goes (metadata/embed.ts) and
 * is recorded with the image. Never throws, never keeps the image from being saved.
 */
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import type {
  ContentCredentialVerifier,
  CredentialOwner,
} from '../../ports/content-credential-verifier';
import type { Logger } from '../../ports/logger';
import type { ImageKind } from '../images';
import { type C2paPresence, detectC2paInOpenFile, verdictWithoutReading } from '../gallery';
import { openRegularFile, readOpenedFile } from '../fs';

export interface CredentialsFound {
  /** What the container holds; decides whether the file may be edited. */
  readonly presence: C2paPresence;
  /** The verdict, when there is one (no verifier wired: only the presence is known). */
  readonly verdict: Promise<ContentCredentials | undefined>;
}

/** The file could not be read at all: the checks after this one fail on it too. */
const UNREAD: C2paPresence = {
  found: false,
  damaged: 'The file could not be read to look for Content Credentials.',
};

/** The gallery's image cap: a bigger file's store is not read into memory to be verified. */
const MAX_VERIFIED_FILE_BYTES = 64 * 1024 * 1024;

/** What finding and verifying a file's credentials needs; `owner` says whose image it is. */
export interface CredentialsContext {
  readonly verifier?: ContentCredentialVerifier;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  readonly owner?: CredentialOwner;
}

/**
 * Looks for a store and starts verifying it; the verdict is awaited by the caller once the rest
 * of the download's checks are done, so the two overlap. `file` is opened once, inside `root`
 * (a regular file, never through a link, never waiting on a FIFO: regular-file.ts); the walk
 * reads that handle and the verifier gets the bytes read from it, never the path.
 */
export async function findCredentials(
  root: string,
  file: string,
  kind: ImageKind,
  context: CredentialsContext,
): Promise<CredentialsFound> {
  const opened = await openRegularFile(root, file, Number.MAX_SAFE_INTEGER).catch(() => null);
  if (!opened) return known(UNREAD);
  const { handle, size } = opened;
  try {
    const presence = await detectC2paInOpenFile(handle, size, kind).catch(() => UNREAD);
    if (verdictWithoutReading(presence) || !context.verifier) return known(presence);
    const bytes =
      size > MAX_VERIFIED_FILE_BYTES ? null : await readOpenedFile(handle, size).catch(() => null);
    if (!bytes) return { presence, verdict: Promise.resolve({ state: 'unreadable' }) };
    return { presence, verdict: verified(context.verifier, bytes, kind, context) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** What a file known to carry no Content Credentials gives, without reading it. */
export function noCredentials(): CredentialsFound {
  return known({ found: false });
}

/** `presence` with the verdict it gives without a verifier (none without one to ask). */
function known(presence: C2paPresence): CredentialsFound {
  return { presence, verdict: Promise.resolve(verdictWithoutReading(presence) ?? undefined) };
}

function verified(
  verifier: ContentCredentialVerifier,
  bytes: Uint8Array,
  format: ImageKind,
  context: CredentialsContext,
): Promise<ContentCredentials | undefined> {
  const { signal, owner } = context;
  return verifier
    .verify({ bytes, format, ...(signal ? { signal } : {}), ...(owner ? { owner } : {}) })
    .catch((error: unknown): undefined => {
      context.logger.warn('Content Credentials not verified.', {
        error: error instanceof Error ? error.name : typeof error,
      });
      return undefined;
    });
}
