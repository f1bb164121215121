/**
 * The templates module's face (electron/core/templates/): its doors are the exports below, the only
 * names other modules and the fronts import from it. Prompt templates' files: Pictor's own JSON and
 * other applications' styles (Fooocus, A1111's `styles.csv`, InvokeAI), read into checked templates
 * (`importTemplates`, bad entries reported by line or index) and written from them
 * (`exportTemplates`, what a format cannot hold listed, never changed; a CSV cell a spreadsheet
 * would run as a formula written after an apostrophe by `core/base/csv-cell.ts`, the costs CSV's
 * writer too, which the import takes off again).
 *
 * - Prompt templates (history v12, `core/history/template-schema.ts`): `templates` (the whole
 *   record as JSON, with its name, folded name key (unique), version and time beside it) and
 *   `word_lists` (by folded name, words as JSON). `TemplateStore`
 *   (`core/templates/template-store.ts`, `core.templates`) checks every change and writes it in one
 *   transaction that reads the rows under the write lock: a save naming the version it edited is
 *   refused when another window or the CLI saved since; an import is written whole or not at all.
 *   Rows are checked again on read: one edited by hand is listed with a sentence. After every
 *   change the whole set (and the word lists) is written atomically to
 *   `<gallery>/.pictor-templates/templates.json` (Pictor's template file format with a `wordLists`
 *   field; `core/templates/template-backup.ts`), and `rebuild` adds back what that copy holds and
 *   the history lacks. A library moved elsewhere gets its copy at its next change (the move carries
 *   task folders only), and two processes writing at once may leave the copy one change behind
 *   until the next.
 */
export { keptTemplates } from './kept-templates';
export {
  readTemplateFile,
  type TemplateFileFormat,
  type TemplateFileReading,
} from './template-files';
export { sourceOf, type TemplateSource } from './template-source';
export { TemplateStore } from './template-store';
