/**
 * Error sentences of the library area (merged into shared/i18n/main-messages.ts): keys
 * `error.library.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */
export const libraryErrors = {} as const;
