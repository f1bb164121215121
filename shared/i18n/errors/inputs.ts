/**
 * Sentences of images as inputs (merged into shared/i18n/main-messages.ts): keys
 * `error.inputs.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * electron/core/inputs/: how inputs travel to a model, and why they cannot.
 */
export const inputErrors = {
  // input-route.ts: no way for the inputs to reach the model.
  'error.inputs.tooLarge':
    'An input image is larger than this model takes ({bytes, number} bytes, {side, number} pixels a side): make it smaller first. Nothing was sent.',
  'error.inputs.tooLargeInline':
    'An input image is too large to go inside the request, and this model takes no upload. Nothing was sent.',
  'error.inputs.uploadRefused':
    'This model takes its images only by upload, and uploads are turned off (“Never upload inputs”). Nothing was sent.',
} as const;
