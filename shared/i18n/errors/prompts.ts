/**
 * Error sentences of the prompt history (merged into shared/i18n/main-messages.ts): keys
 * `error.prompts.*`. electron/core/history/prompt-history.ts.
 */
export const promptErrors = {
  'error.prompts.tooManyPins':
    'You can pin at most {max} prompts. Unpin one you no longer need, then pin this one.',
} as const;
