/**
 * What the user can do with a gallery image through the OS, and the links and folders Pictor
 * opens. The app implements it with Electron's shell, clipboard and dialogs
 * (electron/adapters/shell-actions.ts); the end-to-end harness with recording stand-ins.
 *
 * Callers pass absolute paths they resolved inside the gallery; every implementation checks them
 * again. Every action resolves to a Result (never throws), with a sentence for the user and the
 * technical detail beside it.
 */
import type { WebContents } from 'electron';
import type { Result } from '../../shared/ipc/contract';

/** What Save As needs to suggest a file name. */
export interface SaveAsRequest {
  readonly prompt: string;
  readonly index: number;
}

export interface ShellActions {
  /** Shows the file in Finder / Explorer / the file manager. */
  reveal(file: string): Promise<Result<void>>;
  /** Puts the image on the clipboard, as PNG. */
  copyImage(file: string): Promise<Result<void>>;
  /**
   * Save as's dialog: asks where to save a copy of the image `file`; the file chosen, `null` when
   * the user cancelled. It copies nothing: the copy is the core's (PictorCore.outgoingImages),
   * through its closing gate, which a dialog left open must not hold.
   */
  chooseSaveAsFile(file: string, request: SaveAsRequest): Promise<Result<string | null>>;
  /** Starts dragging the file out of `sender`; call while its `dragstart` is being handled. */
  startDrag(sender: WebContents, file: string, thumbnail?: string): Promise<Result<void>>;
  /** Opens an https link in the browser after checking it. */
  openExternal(url: string): Promise<Result<void>>;
  /**
   * Opens the gallery folder `folder` in the file manager. The core makes it when it is gone
   * (PictorCore.galleryFolder, through its closing gate); the shell only opens the path given.
   */
  openGalleryFolder(folder: string): Promise<Result<void>>;
  /** Opens the logs folder (made first when it is missing: the app's, not the core's). */
  openLogsFolder(): Promise<Result<void>>;
}
