/**
 * Error sentences of the settings area (merged into shared/i18n/main-messages.ts): keys
 * `error.settings.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */
export const settingsErrors = {} as const;
