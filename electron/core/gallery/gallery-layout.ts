/**
 * How the gallery folder is laid out on disk, named in one place:
 *
 *     <root>/YYYY/MM/YYYY-MM-DD_HHMMSS_<slug>_<id8>/   a task's folder (taskFolderName)
 *         pictor.json                                 its sidecar (SIDECAR_NAME)
 *         image-1.png, image-2.jpg, …                 its images (imageNames)
 *         image-1.xmp, …                              the XMP of an image that carries
 *                                                     Content Credentials (imageNames), or
 *                                                     of another image's rating and tags
 *         .thumbs/image-1.webp, …                     their thumbnails (THUMBS_DIR)
 *         .inline/<sha256>                            an image the service sent inline, until
 *                                                     it is saved (INLINE_DIR, inline-spool.ts)
 *     <root>/.pictor-tmp/                             files being written (TEMP_DIR, fs/temp-names.ts)
 *
 * Every name is built from the record alone (its date, prompt, local id and image index, and the
 * hash Pictor computed of an inline image's bytes), never from anything the network sent, so it
 * is safe and the same on every call.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { IMAGE_EXTENSION, type ImageKind } from '../../../shared/domain/image-kind';
import { foldedName, foldsNames } from '../../../shared/text/file-names';

/** The sidecar beside a task's images: the record, so the library can be rebuilt from files. */
export const SIDECAR_NAME = 'pictor.json';
/** The folder inside a task folder that holds its thumbnails. */
export const THUMBS_DIR = '.thumbs';
/** The folder inside a task folder that holds the images its service sent inline, until saved. */
export const INLINE_DIR = '.inline';

/**
 * `image-<n>.<ext>`, `.thumbs/image-<n>.webp` and `image-<n>.xmp`, relative to the task folder.
 * The XMP sidecar takes the image's name with its extension replaced, as Adobe's tools (Bridge,
 * Lightroom, Camera Raw) and exiftool's `-o %d%f.xmp` name one: a task folder holds one image per
 * index, so the name is never shared.
 */
export function imageNames(
  index: number,
  kind: ImageKind,
): { image: string; thumbnail: string; xmp: string } {
  const base = `image-${index + 1}`;
  return {
    image: `${base}.${IMAGE_EXTENSION[kind]}`,
    thumbnail: `${THUMBS_DIR}/${base}.webp`,
    xmp: `${base}.xmp`,
  };
}

/** The XMP sidecar of an image file name (`image-1.png` → `image-1.xmp`). */
export function xmpSidecarName(imageName: string): string {
  return imageName.replace(/\.[^./]*$/, '') + '.xmp';
}

/** How many `-restored-N` names Undo tries for one file (gallery-trash.ts). */
export const MAX_RESTORE_NAMES = 100;
/** `image-<n>-restored-<N>.<ext>`: an image Undo brought back under a new name. */
const RESTORED_IMAGE_NAME = /^image-([1-9]\d{0,2})-restored-([1-9]\d{0,2})\.([a-z]{3,4})$/;

/**
 * The names image `index` may have in a task folder of `present` files, best first: its own
 * (`image-1.png`) in each of `kinds`, then the `-restored-N` names Undo gives it when its own was
 * taken meanwhile (`image-1-restored-2.png`), lowest N first. Only names Pictor gives, so a
 * folder anyone could have written is still read by name alone; on a `platform` (this one's by
 * default) whose disks take `IMAGE-1.PNG` for `image-1.png` (foldsNames), in any case, as its name
 * there is found: else the image would seem missing, and its download again would replace that
 * very file.
 */
export function imageFileCandidates(
  index: number,
  kinds: readonly ImageKind[],
  present: ReadonlySet<string>,
  platform: NodeJS.Platform = process.platform,
): { kind: ImageKind; name: string }[] {
  const fold = foldsNames(platform) ? foldedName : (name: string) => name;
  const folded = new Map([...present].reverse().map((name) => [fold(name), name]));
  const own = kinds.flatMap((kind) => {
    const wanted = imageNames(index, kind).image;
    const name = present.has(wanted) ? wanted : folded.get(fold(wanted));
    return name === undefined ? [] : [{ kind, name, n: 0 }];
  });
  const restored = [...present].flatMap((name) => {
    const [, number, n, extension] = RESTORED_IMAGE_NAME.exec(fold(name)) ?? [];
    const kind = kinds.find((candidate) => IMAGE_EXTENSION[candidate] === extension);
    const which = Number(n);
    return Number(number) === index + 1 && kind && which <= MAX_RESTORE_NAMES
      ? [{ kind, name, n: which }]
      : [];
  });
  restored.sort((a, b) => a.n - b.n || kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
  return [...own, ...restored].map(({ kind, name }) => ({ kind, name }));
}

const SLUG_MAX = 40;
const ID_CHARS = 8;

/** `[a-z0-9-]` only, at most `max` characters, no leading or trailing dash; '' when nothing is left. */
export function slugify(text: string, max = SLUG_MAX): string {
  const flat = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '');
  return flat.slice(0, max).replace(/-+$/, '');
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `YYYY/MM/YYYY-MM-DD_HHMMSS_<slug>_<id8>` in local time; see {@link Gallery.folderFor}. */
export function taskFolderName(
  record: Pick<TaskRecord, 'createdAt' | 'localId' | 'request'>,
): string {
  const date = new Date(Number.isFinite(record.createdAt) ? record.createdAt : 0);
  const year = pad(date.getFullYear(), 4);
  const month = pad(date.getMonth() + 1);
  const day = `${year}-${month}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  const slug = slugify(record.request.prompt) || 'untitled';
  const id = slugify(record.localId, ID_CHARS) || 'task';
  return `${year}/${month}/${day}_${time}_${slug}_${id}`;
}
