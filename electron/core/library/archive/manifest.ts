/**
 * `pictor-export.json`, the manifest at the root of an exported archive: which Pictor wrote it,
 * when, and every file in it with its task, size and SHA-256. Read back from an archive anyone
 * could have made, so it is parsed with a bounded schema, never trusted: a file whose bytes do
 * not match its line is refused.
 *
 * The work a hostile manifest can cause is bounded: its text's shape is checked before it is
 * parsed (manifest-shape.ts), and its entries are checked one at a time, stopping at the first
 * invalid one. (The schema run over the whole array at once collected every problem of every
 * entry, five for each `{}`: 250,000 of them took seconds and gigabytes, to report only the first.)
 */
import { z } from 'zod';
import { MAX_LOCAL_ID_CHARS } from '../../../../shared/domain/limits';
import { manifestShapeProblem } from './manifest-shape';
import { shownIssue } from '../../../../shared/text/shown-name';

export const MANIFEST_NAME = 'pictor-export.json';
export const MANIFEST_FORMAT = 'pictor-library-export';
/**
 * The newest format this version reads; 2 added `xmp` entries (an image's XMP sidecar), 3 `input`
 * entries (an input image an edit was made from, `inputs/<sha256>.<ext>`).
 */
export const MANIFEST_VERSION = 3;
/** The format of an archive with XMP sidecars and no input images. */
export const MANIFEST_VERSION_WITH_XMP = 2;
/** The format of an archive without XMP sidecars: earlier versions of Pictor read it too. */
export const MANIFEST_VERSION_WITHOUT_XMP = 1;

export const manifestEntrySchema = z
  .object({
    /** The task's local id (`TaskRecord.localId`). */
    taskId: z.string().min(1).max(MAX_LOCAL_ID_CHARS),
    /** `/`-separated, relative to the archive's root. */
    path: z.string().min(1).max(4_096),
    kind: z.enum(['sidecar', 'image', 'xmp', 'input']),
    size: z
      .number()
      .int()
      .min(0)
      .max(2 ** 40),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type ManifestEntry = z.infer<typeof manifestEntrySchema>;

/** The manifest with its entries unchecked: they are checked one by one (see the file's comment). */
const manifestHeadSchema = z
  .object({
    format: z.literal(MANIFEST_FORMAT),
    version: z.number().int().positive(),
    pictorVersion: z.string().min(1).max(100),
    createdAt: z.iso.datetime(),
    entries: z.array(z.unknown()),
  })
  .strict();
export type Manifest = Omit<z.infer<typeof manifestHeadSchema>, 'entries'> & {
  entries: ManifestEntry[];
};

export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 1)}\n`;
}

/**
 * Why a manifest cannot be used: one of the `error.library.manifest…` sentences without its
 * `what` (the archive or the folder, which the caller knows).
 */
export interface ManifestProblem {
  readonly key:
    | 'error.library.manifestNotJson'
    | 'error.library.manifestNotPictor'
    | 'error.library.manifestNewer'
    | 'error.library.manifestTooManyFiles'
    | 'error.library.manifestShape'
    | 'error.library.manifestInvalid';
  readonly params?: Readonly<Record<string, string>>;
}

type Parsed = { ok: true; manifest: Manifest } | { ok: false; problem: ManifestProblem };

function invalid(issue: z.core.$ZodIssue | undefined, at: readonly PropertyKey[] = []): Parsed {
  const shown = shownIssue({
    path: [...at, ...(issue?.path ?? [])],
    message: issue?.message ?? '?',
  });
  // `none`: the manifest as a whole (the sentence then names no field).
  return {
    ok: false,
    problem: {
      key: 'error.library.manifestInvalid',
      params: { where: shown.where ?? 'none', problem: shown.problem },
    },
  };
}

function tooMany(maxEntries: number): Parsed {
  return {
    ok: false,
    problem: { key: 'error.library.manifestTooManyFiles', params: { max: String(maxEntries) } },
  };
}

/** The manifest in `text`, or why it cannot be used. */
export function parseManifest(text: string, maxEntries: number): Parsed {
  const shape = manifestShapeProblem(text, maxEntries);
  if (shape === 'many') return tooMany(maxEntries);
  if (shape !== null) return { ok: false, problem: { key: 'error.library.manifestShape' } };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: { key: 'error.library.manifestNotJson' } };
  }
  const head = z
    .object({ format: z.literal(MANIFEST_FORMAT), version: z.number() })
    .safeParse(json);
  if (!head.success) return { ok: false, problem: { key: 'error.library.manifestNotPictor' } };
  if (head.data.version > MANIFEST_VERSION) {
    return {
      ok: false,
      problem: {
        key: 'error.library.manifestNewer',
        params: { version: String(head.data.version) },
      },
    };
  }
  const whole = manifestHeadSchema.safeParse(json);
  if (!whole.success) return invalid(whole.error.issues[0]);
  if (whole.data.entries.length > maxEntries) return tooMany(maxEntries);
  const entries: ManifestEntry[] = [];
  for (const [index, entry] of whole.data.entries.entries()) {
    const parsed = manifestEntrySchema.safeParse(entry);
    if (!parsed.success) return invalid(parsed.error.issues[0], ['entries', index]);
    entries.push(parsed.data);
  }
  return { ok: true, manifest: { ...whole.data, entries } };
}
