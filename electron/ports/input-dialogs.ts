/**
 * The main process's own open dialog for an input image (an edit's source, a mask or a
 * reference from a file): the only source of the path `inputs:pickFile` reads (the page never
 * names one). Electron's `dialog` in the app (adapters/input-dialogs.ts); a scripted stand-in in
 * the end-to-end harness.
 */
export interface InputDialogs {
  /** An open dialog for one PNG, JPEG or WebP image; its path, or null when cancelled. */
  chooseInputImage(): Promise<string | null>;
}
