/**
 * Error sentences of the service area (merged into shared/i18n/main-messages.ts): keys
 * `error.service.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */
export const serviceErrors = {} as const;
