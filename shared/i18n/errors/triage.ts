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
  // shared/domain/smart-board.ts, electron/core/triage/smart-boards.ts
  'error.triage.smartRulesInvalid': 'These smart board rules are not ones Pictor can read.',
  'error.triage.smartNestedGroup':
    'A group of rules cannot hold another group: groups go one level deep.',
  'error.triage.smartNoRules':
    'A smart board needs at least one rule, and each group of rules at least one.',
  'error.triage.smartTooManyRules':
    'A smart board can have at most {max} rules; these are {count}.',
  'error.triage.smartRuleInvalid': 'Rule {number} of the smart board is not one Pictor can read.',
  'error.triage.smartRangeInvalid':
    'Rule {number} of the smart board needs a lowest or a highest value, and the lowest cannot be above the highest.',
  'error.triage.smartExists': 'There is already a smart board named “{name}”.',
  'error.triage.smartNotFound': 'There is no smart board “{name}”.',
  'error.triage.tooManySmartBoards': 'The library can have at most {max} smart boards.',
  'error.triage.smartBoardMissing':
    'The board “{path}” no longer exists; this rule matches nothing.',
  'error.triage.smartTagMissing':
    'No image has the tag “{tag}” any more; this rule matches nothing.',
  'error.triage.smartTagMissingIgnored':
    'No image has the tag “{tag}” any more, so this rule no longer tests it.',
  'error.triage.smartRulesDamaged':
    'The rules of the smart board “{name}” cannot be read; it matches nothing until new rules are saved.',
};
