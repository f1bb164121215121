/**
 * The templates module (electron/core/templates/), its face: the one file other modules and the
 * fronts import from it. Prompt templates' files: Pictor's own JSON and other applications' styles
 * (Fooocus, A1111's `styles.csv`, InvokeAI), read into checked templates (`importTemplates`, bad
 * entries reported by line or index) and written from them (`exportTemplates`, what a format cannot
 * hold listed, never changed; a CSV cell a spreadsheet would run as a formula written after an
 * apostrophe by `core/base/csv-cell.ts`, the costs CSV's writer too, which the import takes off
 * again).
 */
export { TemplateBackup } from './template-backup';
export { PICTOR_TEMPLATES_FORMAT } from './template-export';
export { readTemplateFile, type TemplateFileFormat } from './template-files';
export { sourceOf, type TemplateSource } from './template-source';
export { TemplateStore } from './template-store';
