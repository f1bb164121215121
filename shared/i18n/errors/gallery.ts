/**
 * Error sentences of the gallery area (merged into shared/i18n/main-messages.ts): keys
 * `error.gallery.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */
export const galleryErrors = {} as const;
