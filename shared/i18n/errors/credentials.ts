/**
 * Error sentences of the credentials area (merged into shared/i18n/main-messages.ts): keys
 * `error.credentials.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */
export const credentialsErrors = {} as const;
