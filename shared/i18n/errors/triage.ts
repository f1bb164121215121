/**
 * Error sentences of triage (merged into shared/i18n/main-messages.ts): keys `error.triage.*`,
 * ICU MessageFormat, typographic apostrophes (’), placeholders for every value. Ratings, flags,
 * tags and boards (shared/domain/triage.ts, electron/core/triage/), for the window and the CLI.
 */
export const triageErrors = {
  // shared/domain/triage.ts
  'error.triage.tagEmpty': 'A tag cannot be empty.',
  'error.triage.tagTooLong': 'A tag can have at most {max} characters.',
  'error.triage.tagCharacter': 'A tag cannot contain the character {character}.',
  'error.triage.boardEmpty': 'A board name cannot be empty.',
  'error.triage.boardTooLong': 'A board name can have at most {max} characters.',
  'error.triage.boardCharacter': 'A board name cannot contain the character {character}.',
  'error.triage.boardSlash':
    'A board name cannot contain “/”: it separates a board from the board it is in.',
  'error.triage.boardTooDeep': 'Boards can be nested at most {max} levels deep.',
  // electron/core/triage/
  'error.triage.ratingRange': 'A rating is a whole number from 0 to {max}.',
  'error.triage.tooManyTagsOnImage':
    'An image can have at most {max} tags; {count, plural, one {# image} other {# images}} already had that many, so the tag was not added to them.',
  'error.triage.tooManyTagsInLibrary':
    'The library can have at most {max} different tags. Remove tags no image needs, then try again.',
  'error.triage.tooManyBoards': 'The library can have at most {max} boards.',
  'error.triage.boardExists': 'There is already a board named “{name}” there.',
  'error.triage.boardNotFound': 'There is no board “{path}”.',
  'error.triage.boardIntoItself': 'A board cannot be moved into itself or into a board inside it.',
  'error.triage.tooManyImages': 'At most {max} images can be changed at once; {count} were named.',
};
