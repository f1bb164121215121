/**
 * Sentences of the provider profiles' image requests (merged into shared/i18n/main-messages.ts):
 * keys `error.providerInputs.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for
 * every value. electron/core/service/providers/input-request.ts: why a task with input images
 * cannot be sent to the model it names. Every one ends "Nothing was sent": the refusal comes
 * before the request is built.
 */
export const providerInputErrors = {
  'error.providerInputs.noImages':
    '{model} at {service} takes no image. Choose a model that works on images. Nothing was sent.',
  'error.providerInputs.workflowMissing':
    '{model} is not a workflow imported into {service}. Import it and map its inputs (Settings → ComfyUI, pictor comfy import), or choose another model. Nothing was sent.',
  'error.providerInputs.workflowNotKept':
    'This task did not keep the workflow {model} ran, so it cannot run again as it ran. Choose {model} in the form to run the workflow imported under that name now. Nothing was sent.',
  'error.providerInputs.operation':
    '{model} at {service} does not do {operation, select, edit {an edit} fill {a fill under a mask} outpaint {an expand} other {an upscale}} with an image. Choose a model that does. Nothing was sent.',
  'error.providerInputs.notPrepared':
    'The task’s input images were not prepared for sending. Nothing was sent.',
  'error.providerInputs.maskConvention':
    '{model} at {service} reads a mask as {convention, select, alpha {transparency (transparent = edit)} other {white on black (white = edit)}}, and the task has no mask in that form. Nothing was sent.',
  'error.providerInputs.references':
    '{model} at {service} takes at most {most, number} reference images besides the source; this task has {count, number}. Nothing was sent.',
  'error.providerInputs.factor':
    '{model} at {service} does not upscale by {factor, number}. Nothing was sent.',
  'error.providerInputs.expandMissing':
    'An expand needs pixels to add on at least one side. Nothing was sent.',
  'error.providerInputs.expandTooLarge':
    '{model} at {service} adds at most {most, number} pixels on a side. Nothing was sent.',
} as const;
