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
} as const;
