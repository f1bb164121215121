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
  /** A save dialog for a template file in `format` (it asks before replacing); null when cancelled. */
  chooseTemplateExportFile?(format: TemplateFileKind): Promise<string | null>;
  /** An open dialog for a template file in `format`; null when cancelled. */
  chooseTemplateImportFile?(format: TemplateFileKind): Promise<string | null>;
  /** An open dialog for a ComfyUI workflow (its API format's JSON); null when cancelled. */
  chooseWorkflowFile?(): Promise<string | null>;
  /** An open dialog for a model's options as a small JSON schema; null when cancelled. */
  chooseModelOptionsFile?(): Promise<string | null>;
}

/** The template file formats (core/templates/template-files.ts): Pictor's, Fooocus', A1111's, InvokeAI's. */
export type TemplateFileKind = 'pictor' | 'fooocus' | 'a1111' | 'invokeai';
