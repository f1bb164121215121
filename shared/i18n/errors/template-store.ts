/**
 * Error sentences of the library's templates and word lists (merged into
 * shared/i18n/main-messages.ts): keys `error.templateStore.*`, ICU MessageFormat, typographic
 * apostrophes (’), placeholders for every value. electron/core/templates/template-store.ts and
 * shared/domain/word-lists.ts, for the window and the CLI alike.
 */
export const templateStoreErrors = {
  'error.templateStore.notFound': 'There is no template “{name}”.',
  'error.templateStore.exists': 'There is already a template named “{name}”.',
  'error.templateStore.stale':
    'The template “{name}” was changed elsewhere since you opened it (it is now at version {version}). Open it again and redo your change.',
  'error.templateStore.tooMany': 'A library can hold at most {max} templates.',
  'error.templateStore.damaged':
    'The stored template “{name}” cannot be read: it was changed outside Pictor. Delete it, or import it again from a file.',
  'error.templateStore.listName':
    '“{name}” is not a word list name. A name has up to 64 letters, digits and hyphens, with single underscores between them.',
  'error.templateStore.listTooLong': 'A word list can have at most {max} words.',
  'error.templateStore.wordTooLong':
    'Word {line} of the list is longer than {max} characters. Shorten it.',
  'error.templateStore.wordCharacter':
    'Word {line} of the list contains the character {character}, which a word cannot contain.',
  'error.templateStore.tooManyLists': 'A library can hold at most {max} word lists.',
  'error.templateStore.listNotFound': 'There is no word list “{name}”.',
} as const;
