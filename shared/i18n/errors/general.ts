/**
 * Error sentences shared by every area: keys `error.general.*` (and `error.unexpected`), ICU
 * MessageFormat, typographic apostrophes (’), placeholders for every value.
 */
export const generalErrors = {
  'error.unexpected':
    'Something went wrong inside Pictor. Nothing was lost; try again, and if it keeps happening, send the log file (Help › Open logs folder).',
} as const;
