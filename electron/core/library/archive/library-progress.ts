/** How far an export or import has come, for progress bars (sent to the page as an event). */
export interface LibraryProgress {
  readonly operation: 'export' | 'import';
  /** Tasks done so far, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Bytes of files read (import) or written into the archive (export) so far. */
  readonly bytes: number;
}
