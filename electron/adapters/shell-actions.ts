/**
 * What the user can do with a gallery image through the OS: reveal it in Finder/Explorer,
 * copy it to the clipboard, choose where Save as puts a copy (the copy is the core's), drag it out
 * to other apps; and open https links, the gallery folder (the core's path) and the logs folder.
 *
 * Callers pass absolute paths they resolved inside the gallery; every action checks them again
 * with the guard it was given. Every action resolves to a Result (never throws), with a sentence
 * for the user and the technical detail beside it.
 *
 * A copy and a drag read the whole image in main and make a PNG of it, asked for by a request a few
 * characters long: a compromised page asking 24 times at once for one 40 MiB image had main hold
 * forty copies' worth of it. So at most {@link WHOLE_IMAGES_AT_ONCE} run at once, the others
 * waiting their turn holding nothing. And none reads a file larger than the gallery's one cap
 * ({@link GALLERY_MAX_IMAGE_BYTES}, the largest image Pictor saves): a file of several GB put in a
 * crafted gallery folder is refused with a sentence before any of it is read.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ClipboardItem, clipboard, dialog, nativeImage, shell } from 'electron';
import type { BrowserWindow, NativeImage, SaveDialogOptions, WebContents } from 'electron';
import type { IpcError, Result } from '../../shared/ipc/contract';
import type { PathGuard } from '../app/os/path-guard';
import type { SaveAsRequest, ShellActions } from '../ports/shell-actions';
import { suggestedFileName } from '../app/os/save-name';
import { messageOf } from '../core/errors';
import { englishText, sentence, type Sentence } from '../../shared/i18n/sentence';
import { mainText } from '../app/i18n/main-text';
import { pngOfImage } from '../core/images';
import type { ImageEngine } from '../ports/image-engine';
import { PRIVATE_FOLDER_MODE, readRegularFile } from '../core/fs';
import { GALLERY_MAX_IMAGE_BYTES } from '../../shared/domain/limits';
import { limiter } from '../core/base';

export interface ShellActionsOptions {
  /** The gallery folder now (it can change in Settings). */
  readonly galleryRoot: () => string;
  /** The last check on every image path (app/os/path-guard.ts `galleryGuard`). */
  readonly isInsideGallery: PathGuard;
  /** The URL check links must pass before they open in the browser (https only on top). */
  readonly isAllowedExternal: (url: string) => boolean;
  /** `app.getPath('logs')`. */
  readonly logsDir: () => string;
  /** Where Save As starts: `app.getPath('downloads')` or `'pictures'`. */
  readonly saveDir: () => string;
  /** Dragged when no image of the file can be made (macOS refuses an empty drag icon). */
  readonly fallbackDragIcon?: string;
  /** The window Save As is a sheet on (macOS), when one is open. */
  readonly parentWindow?: () => BrowserWindow | null;
  /** Converts JPEG and WebP to PNG (clipboard) and makes drag icons: the app's image engine. */
  readonly images: Pick<ImageEngine, 'toPng'>;
}

/** The gallery's pixel limit (the download's default): a bigger file was not saved by Pictor. */
const MAX_PIXELS = 100_000_000;

const DRAG_ICON_SIZE = 128;

/** Copies and drags (each holding a whole image) that run at once. */
const WHOLE_IMAGES_AT_ONCE = 2;

const MIME_FILTERS: Record<string, { name: string; extensions: string[] }> = {
  '.png': { name: 'PNG image', extensions: ['png'] },
  '.jpg': { name: 'JPEG image', extensions: ['jpg', 'jpeg'] },
  '.jpeg': { name: 'JPEG image', extensions: ['jpg', 'jpeg'] },
  '.webp': { name: 'WebP image', extensions: ['webp'] },
};

function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

function fail(code: IpcError['code'], said: Sentence, detail?: unknown): Result<never> {
  const text = detail === undefined ? '' : messageOf(detail);
  const message = englishText(said);
  return { ok: false, error: { code, message, sentence: said, ...(text ? { detail: text } : {}) } };
}

const OUTSIDE = fail('forbidden', sentence('error.gallery.fileOutsideGallery'));

const TOO_LARGE = fail(
  'bad_input',
  sentence('error.gallery.imageTooLarge', { max: GALLERY_MAX_IMAGE_BYTES }),
);

/**
 * Refusal or absence of `files`, or `null` when they may be used. `sized`: the first is an image
 * the action reads or copies, refused over the gallery's cap (the read checks it again on what it
 * opened, for a file that grew since).
 */
async function checkFiles(
  guard: PathGuard,
  files: readonly string[],
  sized: boolean,
): Promise<Result<never> | null> {
  for (const file of files) if (!(await guard(file))) return OUTSIDE;
  try {
    // lstat: a link, FIFO or device is never acted on, whatever it leads to.
    const info = await lstat(files[0] ?? '');
    if (!info.isFile()) return fail('not_found', sentence('error.gallery.notAnImageFile'));
    if (sized && info.size > GALLERY_MAX_IMAGE_BYTES) return TOO_LARGE;
    return null;
  } catch (error) {
    return fail('not_found', sentence('error.gallery.fileGone'), error);
  }
}

type Images = ShellActionsOptions['images'];

/**
 * The image as PNG bytes (the clipboard's common image format); JPEG and WebP are converted after
 * a header check. Read as a regular file inside the gallery once opened (a folder swapped for a
 * link leads nowhere).
 */
async function pngBytes(root: string, file: string, images: Images): Promise<Uint8Array | null> {
  try {
    const bytes = await readRegularFile(root, file, GALLERY_MAX_IMAGE_BYTES);
    return await pngOfImage(bytes, images, { maxPixels: MAX_PIXELS });
  } catch {
    return null;
  }
}

/** A small PNG of `file` for the drag cursor (Electron cannot read WebP thumbnails itself). */
async function iconImage(root: string, file: string, images: Images): Promise<NativeImage | null> {
  try {
    const png = await pngOfImage(
      await readRegularFile(root, file, GALLERY_MAX_IMAGE_BYTES),
      images,
      {
        maxPixels: MAX_PIXELS,
        maxSide: DRAG_ICON_SIZE,
      },
    );
    const image = nativeImage.createFromBuffer(Buffer.from(png));
    return image.isEmpty() ? null : image;
  } catch {
    return null;
  }
}

async function dragIcon(
  root: string,
  sources: readonly string[],
  fallback: string | undefined,
  images: Images,
): Promise<NativeImage | null> {
  for (const source of sources) {
    const image = await iconImage(root, source, images);
    if (image) return image;
  }
  const last = fallback ? nativeImage.createFromPath(fallback) : null;
  return last && !last.isEmpty() ? last : null;
}

/**
 * Opens `folder` in the file manager. The logs folder is made first when missing; the gallery
 * folder never here: the core makes it (PictorCore.galleryFolder), through its closing gate.
 */
async function openFolder(folder: string, which: 'gallery' | 'logs'): Promise<Result<void>> {
  const said = sentence('error.gallery.openFolderFailed', { which, path: folder });
  try {
    if (which === 'logs') await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const problem = await shell.openPath(folder);
    if (problem === '') return ok(undefined);
    return fail('failed', said, problem);
  } catch (error) {
    return fail('failed', said, error);
  }
}

export function createShellActions(options: ShellActionsOptions): ShellActions {
  const guarded = async <T>(files: string[], action: () => Promise<Result<T>>, sized = true) =>
    (await checkFiles(options.isInsideGallery, files, sized)) ?? action();
  const holding = limiter(WHOLE_IMAGES_AT_ONCE);
  return {
    reveal: (file) =>
      guarded(
        [file],
        async () => {
          shell.showItemInFolder(file);
          return ok(undefined);
        },
        false,
      ),
    copyImage: (file) =>
      holding(() =>
        guarded([file], () => copyToClipboard(options.galleryRoot(), file, options.images)),
      ),
    chooseSaveAsFile: (file, request) =>
      guarded([file], () =>
        chooseSaveFile(file, request, {
          startDir: options.saveDir(),
          window: options.parentWindow?.(),
        }),
      ),
    startDrag: (sender, file, thumbnail) =>
      holding(() =>
        guarded(thumbnail ? [file, thumbnail] : [file], () =>
          dragOut(
            sender,
            file,
            {
              root: options.galleryRoot(),
              sources: thumbnail ? [thumbnail, file] : [file],
              images: options.images,
            },
            options.fallbackDragIcon,
          ),
        ),
      ),
    openExternal: (url) => openLink(url, options.isAllowedExternal),
    openGalleryFolder: (folder) => openFolder(folder, 'gallery'),
    openLogsFolder: () => openFolder(options.logsDir(), 'logs'),
  };
}

async function copyToClipboard(root: string, file: string, images: Images): Promise<Result<void>> {
  const png = await pngBytes(root, file, images);
  if (!png) return fail('failed', sentence('error.gallery.copyUnreadable'));
  try {
    const blob = new Blob([new Uint8Array(png)], { type: 'image/png' });
    await clipboard.write([new ClipboardItem({ 'image/png': blob })]);
    return ok(undefined);
  } catch (error) {
    return fail('failed', sentence('error.gallery.clipboardFailed'), error);
  }
}

async function dragOut(
  sender: WebContents,
  file: string,
  icons: { readonly root: string; readonly sources: readonly string[]; readonly images: Images },
  fallbackIcon: string | undefined,
): Promise<Result<void>> {
  const icon = await dragIcon(icons.root, icons.sources, fallbackIcon, icons.images);
  if (!icon) return fail('failed', sentence('error.gallery.dragFailed'));
  try {
    sender.startDrag({ file, icon });
    return ok(undefined);
  } catch (error) {
    return fail('failed', sentence('error.gallery.dragFailed'), error);
  }
}

async function openLink(url: string, allowed: (url: string) => boolean): Promise<Result<void>> {
  const href = httpsHref(url);
  if (href === null || !allowed(href)) {
    return fail('forbidden', sentence('error.gallery.linkNotHttps'));
  }
  try {
    await shell.openExternal(href); // eng-disable OPEN_EXTERNAL_JS_CHECK (https only, and the caller's check passed)
    return ok(undefined);
  } catch (error) {
    return fail('failed', sentence('error.gallery.linkFailed'), error);
  }
}

/** The parsed, normalised form of an https URL (what is checked is what opens), else `null`. */
function httpsHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Save As's dialog over `window` (a sheet on macOS) when one is open: the file chosen, or null. */
async function chooseSaveFile(
  file: string,
  request: SaveAsRequest,
  { startDir, window }: { startDir: string; window: BrowserWindow | null | undefined },
): Promise<Result<string | null>> {
  const filter = MIME_FILTERS[extname(file).toLowerCase()];
  const dialogOptions: SaveDialogOptions = {
    title: mainText('dialog.saveImageAs'),
    defaultPath: join(startDir, suggestedFileName(request.prompt, request.index, file)),
    ...(filter ? { filters: [filter] } : {}),
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
  try {
    const choice = window
      ? await dialog.showSaveDialog(window, dialogOptions)
      : await dialog.showSaveDialog(dialogOptions);
    return ok(choice.canceled || !choice.filePath ? null : choice.filePath);
  } catch (error) {
    return fail('failed', sentence('error.gallery.saveCopyFailed'), error);
  }
}
