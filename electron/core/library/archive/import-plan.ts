/**
 * Which files of a source make a task: a folder holding `pictor.json` is a task, its
 * `image-<n>.<png|jpg|webp>` files are that task's images and its `image-<n>.xmp` files their
 * XMP sidecars (the names the gallery writes, gallery-layout.ts); `inputs/<sha256>.<ext>` at the
 * root is an input image (import-inputs.ts). Anything else is refused with its reason and never read. With a manifest,
 * every file used must be listed in it with the same size (its SHA-256 is checked as it is read).
 */
import { SIDECAR_NAME } from '../../gallery';
import { INPUTS_DIR } from '../../inputs';
import type { ImageKind } from '../../images';
import { MAX_IMAGES_PER_TASK } from '../../../../shared/domain/limits';
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { refusal, type Refusal } from './archive-errors';
import { MANIFEST_NAME, type ManifestEntry } from './manifest';
import type { SourceFile } from './zip-source';

export interface PlannedImage {
  /** The image's index in its record (`image-<index + 1>`). */
  readonly index: number;
  readonly kind: ImageKind;
  readonly file: SourceFile;
  /** The manifest's line for the file, when there is a manifest. */
  readonly listed?: ManifestEntry;
}

/** An image's XMP sidecar (`image-<index + 1>.xmp`). */
export interface PlannedXmp {
  readonly index: number;
  readonly file: SourceFile;
  readonly listed?: ManifestEntry;
}

/** An input image of the source (`inputs/<sha256>.<ext>`), imported into the input store. */
export interface PlannedInput {
  /** The digest its name gives, which its bytes must have. */
  readonly sha256: string;
  readonly kind: ImageKind;
  readonly file: SourceFile;
  readonly listed?: ManifestEntry;
}

export interface PlannedTask {
  /** The task's folder in the source. */
  readonly folder: string;
  readonly sidecar: SourceFile;
  readonly listedSidecar?: ManifestEntry;
  readonly images: readonly PlannedImage[];
  readonly xmps: readonly PlannedXmp[];
}

export interface ImportPlan {
  readonly tasks: PlannedTask[];
  readonly inputs: PlannedInput[];
  readonly refused: Refusal[];
  /** Bytes of the files to read, as listed (a folder's are counted while read). */
  readonly bytes: number;
}

const IMAGE_NAME = /^image-([1-9][0-9]{0,2})\.(png|jpg|webp|xmp)$/;
const KIND_OF_EXTENSION: Record<string, ImageKind> = { png: 'png', jpg: 'jpeg', webp: 'webp' };
/** An input image's name in the store (inputs/input-store.ts). */
const INPUT_NAME = /^([0-9a-f]{64})\.(png|jpg|webp)$/;

function split(path: string): { folder: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0
    ? { folder: '', name: path }
    : { folder: path.slice(0, slash), name: path.slice(slash + 1) };
}

/** The file's manifest line, or why it cannot be used; `undefined` line when there is no manifest. */
function listing(
  file: SourceFile,
  manifest: ReadonlyMap<string, ManifestEntry> | null,
  known: boolean,
): { ok: true; listed?: ManifestEntry } | { ok: false; reason: Sentence } {
  if (!manifest) return { ok: true };
  const listed = manifest.get(file.path);
  if (!listed) return { ok: false, reason: sentence('error.library.fileNotListed') };
  if (known && listed.size !== file.size) {
    return { ok: false, reason: sentence('error.library.fileSizeMismatch') };
  }
  return { ok: true, listed };
}

export function planImport(
  files: readonly SourceFile[],
  manifest: ReadonlyMap<string, ManifestEntry> | null,
  sizesKnown: boolean,
): ImportPlan {
  const refused: Refusal[] = [];
  const sidecars = new Map<string, { file: SourceFile; listed?: ManifestEntry }>();
  const images = new Map<string, PlannedImage[]>();
  const xmps = new Map<string, PlannedXmp[]>();
  const inputs: PlannedInput[] = [];
  let bytes = 0;
  for (const file of files) {
    if (file.path === MANIFEST_NAME) continue;
    const { folder, name } = split(file.path);
    if (folder === INPUTS_DIR) {
      bytes += planInput(file, name, listing(file, manifest, sizesKnown), { inputs, refused });
      continue;
    }
    const image = IMAGE_NAME.exec(name);
    const isSidecar = name === SIDECAR_NAME && folder !== '';
    const index = image ? Number(image[1]) - 1 : -1;
    if (!isSidecar && (!image || index >= MAX_IMAGES_PER_TASK || folder === '')) {
      refused.push(refusal(file.path, sentence('error.library.fileNotLibrary')));
      continue;
    }
    const listed = listing(file, manifest, sizesKnown);
    if (!listed.ok) {
      refused.push(refusal(file.path, listed.reason));
      continue;
    }
    bytes += file.size;
    const extra = listed.listed ? { listed: listed.listed } : {};
    if (isSidecar) sidecars.set(folder, { file, ...extra });
    else if (image?.[2] === 'xmp') {
      xmps.set(folder, [...(xmps.get(folder) ?? []), { index, file, ...extra }]);
    } else {
      const kind = KIND_OF_EXTENSION[image?.[2] ?? ''] as ImageKind;
      images.set(folder, [...(images.get(folder) ?? []), { index, kind, file, ...extra }]);
    }
  }
  for (const [folder, orphans] of [...images, ...xmps]) {
    if (sidecars.has(folder)) continue;
    for (const orphan of orphans) {
      refused.push(refusal(orphan.file.path, sentence('error.library.imageNoSidecar')));
    }
  }
  const tasks = [...sidecars]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([folder, sidecar]) => ({
      folder,
      sidecar: sidecar.file,
      ...(sidecar.listed ? { listedSidecar: sidecar.listed } : {}),
      images: images.get(folder) ?? [],
      xmps: xmps.get(folder) ?? [],
    }));
  return { tasks, inputs, refused, bytes };
}

/** Plans the input `file` named `name` in the source's `inputs/`, or refuses it; its bytes. */
function planInput(
  file: SourceFile,
  name: string,
  listed: ReturnType<typeof listing>,
  into: { inputs: PlannedInput[]; refused: Refusal[] },
): number {
  const input = INPUT_NAME.exec(name);
  const reason = !input ? sentence('error.lineage.inputName') : !listed.ok ? listed.reason : null;
  if (reason || !input || !listed.ok) {
    into.refused.push(refusal(file.path, reason ?? sentence('error.lineage.inputName')));
    return 0;
  }
  into.inputs.push({
    sha256: input[1] ?? '',
    kind: KIND_OF_EXTENSION[input[2] ?? ''] as ImageKind,
    file,
    ...(listed.listed ? { listed: listed.listed } : {}),
  });
  return file.size;
}
