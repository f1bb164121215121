/**
 * The main process's own dialogs for the library archive: the only source of the paths an export
 * writes to and an import reads from (the page never names one). Electron's `dialog` in the app
 * (adapters/library-dialogs.ts); scripted stand-ins in tests.
 */
export interface LibraryDialogs {
  /** A save dialog for the archive (it asks before replacing a file); null when cancelled. */
  chooseExportFile(): Promise<string | null>;
  /** An open dialog for an archive file or a folder; null when cancelled. */
  chooseImportSource(from: 'archive' | 'folder'): Promise<string | null>;
  /** A save dialog for the cost ledger's CSV (it asks before replacing a file); null when cancelled. */
  chooseLedgerFile?(): Promise<string | null>;
}
