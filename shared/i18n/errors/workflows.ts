/**
 * Error sentences of the window's ComfyUI workflow import (merged into shared/i18n/main-messages.ts):
 * keys `error.workflow.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every
 * value. electron/ipc/workflow-handlers.ts: `{problem}` is the check's own sentence
 * (shared/domain/comfy-workflow.ts, comfy-prompt.ts), the same the CLI prints.
 */
export const workflowErrors = {
  'error.workflow.unreadable':
    'The workflow file could not be read, or is larger than {bytes, number} bytes. Nothing was saved.',
  'error.workflow.refused': 'Pictor did not import this workflow: {problem} Nothing was saved.',
  'error.workflow.notHeld':
    'The workflow picked is no longer held. Import the file again. Nothing was saved.',
  // The data folder refused the workflow's file (core/workflows/workflow-book.ts).
  'error.workflow.notSaved':
    'Pictor could not save the workflow in {folder}. Nothing was changed: check that the disk has free space and is writable, then import it again.',
  // A newer Pictor's workflow file has the name an import gives (core/workflows/workflow-book.ts).
  'error.workflow.newerKept':
    'A workflow named {name} was saved by a newer version of Pictor, which this version cannot read. It was kept as it is and nothing was saved: import this one under another name, or replace it in the newer Pictor.',
} as const;
