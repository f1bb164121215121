/**
 * Error sentences of a model's own options (merged into shared/i18n/main-messages.ts): keys
 * `error.params.*`. shared/domain/model-params.ts.
 */
export const paramErrors = {
  'error.params.unknown': 'The model {model} has no option “{name}”.',
  'error.params.notChoice': 'The option “{name}” takes one of: {choices}.',
  'error.params.notWhole': 'The option “{name}” takes a whole number from {min} to {max}.',
  'error.params.outOfRange': 'The option “{name}” takes a number from {min} to {max}.',
  'error.params.notSwitch': 'The option “{name}” takes true or false.',
  'error.params.tooLong': 'The option “{name}” takes text of at most {max} characters.',
} as const;
