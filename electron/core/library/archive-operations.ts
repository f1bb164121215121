/**
 * The archive's two operations as the library's face gives them: each loads its module (yazl or
 * yauzl, the ZIP reading and writing, the import's plan and merge) when it first runs. Every
 * front opens the core, and most of what they do never touches an archive: a one-record command
 * of the CLI (`pictor rate`, `pictor list`) paid for parsing them at every start.
 */
import type { ExportOptions, ExportSummary } from './archive/export-library';
import type { ImportOptions, ImportSummary } from './archive/import-library';

/** Writes the library (or the tasks named) to a ZIP (archive/export-library.ts). */
export async function exportLibrary(options: ExportOptions): Promise<ExportSummary> {
  return (await import('./archive/export-library')).exportLibrary(options);
}

/** Imports a ZIP or a folder into the library (archive/import-library.ts). */
export async function importLibrary(options: ImportOptions): Promise<ImportSummary> {
  return (await import('./archive/import-library')).importLibrary(options);
}
