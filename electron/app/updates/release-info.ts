/**
 * What a channel file (`latest.yml`, `latest-mac.yml`, `latest-linux.yml`) may say, field by
 * field, and whether this copy of Pictor may be offered it. Only the fields checked here reach
 * electron-updater; anything else in the file is dropped.
 */
import { z } from 'zod';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { updateVersionSchema } from '../../../shared/domain/update-state';
import { FeedRefusedError, readFeedYaml } from './feed-yaml';

/** semver.org's own expression: major.minor.patch, optional prerelease and build parts. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** The largest installer Pictor downloads (today's are about 100 MB). */
const MAX_INSTALLER_BYTES = 2 * 1024 ** 3;

/** A file name's characters: never a path, another host, an escape or a hidden file. */
const PLAIN_NAME_CHARACTERS = /^[A-Za-z0-9_+~-][A-Za-z0-9._+~ -]{0,254}$/;
/**
 * Names Windows does not keep as written: a device (`CON`, `nul.exe`, `COM1.tar.gz`: the part
 * before the first dot, spaces after it ignored) or a trailing dot or space (dropped), so the
 * file electron-updater writes, renames and runs would not be the one the feed named.
 */
const ALTERED_ON_WINDOWS = /^(?:con|prn|aux|nul|com\d|lpt\d) *(?:\.|$)|[. ]$/i;

/** A file name beside the channel file, the same file on every OS. */
export function isPlainFileName(name: string): boolean {
  return PLAIN_NAME_CHARACTERS.test(name) && !ALTERED_ON_WINDOWS.test(name);
}

/**
 * The channel file's schema, built on its first use (shared/domain/lazy-schema.ts): main loads
 * this module at its start, and most runs never read a channel file.
 */
const schemas = lazySchema(() => {
  const versionSchema = updateVersionSchema().regex(SEMVER, 'not a semantic version');
  const fileNameSchema = z.string().max(255).refine(isPlainFileName, 'not a plain file name');
  /** A SHA-512 digest in base64, as electron-builder writes it. */
  const sha512Schema = z.string().regex(/^[A-Za-z0-9+/]{86}==$/, 'not a base64 SHA-512');
  const byteCount = z.number().int().min(1).max(MAX_INSTALLER_BYTES);
  const fileSchema = z.object({
    url: fileNameSchema,
    sha512: sha512Schema,
    size: byteCount,
    blockMapSize: z.number().int().min(0).max(MAX_INSTALLER_BYTES).optional(),
    isAdminRightsRequired: z.boolean().optional(),
  });
  const noteSchema = z.object({ version: z.string().max(64), note: z.string().nullable() });
  const channelFileSchema = z.object({
    version: versionSchema,
    files: z.tuple([fileSchema], fileSchema).refine((files) => files.length <= 16, 'over 16 files'),
    path: fileNameSchema.optional(),
    sha512: sha512Schema.optional(),
    releaseDate: z.iso.datetime({ offset: true }),
    releaseName: z.string().max(200).nullable().optional(),
    releaseNotes: z
      .union([z.string(), z.array(noteSchema).max(50)])
      .nullable()
      .optional(),
    stagingPercentage: z.number().min(0).max(100).optional(),
    minimumSystemVersion: z.string().max(64).optional(),
  });
  return { fileSchema, channelFileSchema };
});

type Schemas = ReturnType<typeof schemas>;

export type ReleaseFile = z.infer<Schemas['fileSchema']>;

/** A release as the feed described it, checked; shaped like electron-updater's `UpdateInfo`. */
export type CheckedRelease = Omit<z.infer<Schemas['channelFileSchema']>, 'path' | 'sha512'> & {
  /** The first file's (electron-updater still reads these two deprecated fields). */
  readonly path: string;
  readonly sha512: string;
};

function hasPrerelease(version: string): boolean {
  return SEMVER.exec(version)?.[4] !== undefined;
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Reads the channel file's text (already capped in bytes) for an app at `currentVersion`.
 * @throws FeedRefusedError when the YAML, a field or the offered version is not acceptable: a
 *   prerelease is offered only to a prerelease.
 */
export function checkChannelFile(text: string, currentVersion: string): CheckedRelease {
  const parsed = schemas().channelFileSchema.safeParse(readFeedYaml(text));
  if (!parsed.success) {
    throw new FeedRefusedError(`The update feed does not fit: ${issuesText(parsed.error)}.`);
  }
  const { path, sha512, ...release } = parsed.data;
  if (hasPrerelease(release.version) && !hasPrerelease(currentVersion)) {
    throw new FeedRefusedError(
      `The update feed offers the prerelease ${release.version} to the stable ${currentVersion}.`,
      'ERR_UPDATER_PRERELEASE_FOR_STABLE',
    );
  }
  const [first] = release.files;
  return { ...release, path: path ?? first.url, sha512: sha512 ?? first.sha512 };
}
