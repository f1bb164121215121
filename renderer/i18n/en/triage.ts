/** English strings of triage: ratings, flags, tags, boards, smart boards and the Triage view. */
export const triage = {
  'triage.rated': '{count, plural, one {Rated # image ★{stars}.} other {Rated # images ★{stars}.}}',
  'triage.unrated':
    '{count, plural, one {Cleared the rating of # image.} other {Cleared the rating of # images.}}',
  'triage.picked': '{count, plural, one {Picked # image.} other {Picked # images.}}',
  'triage.rejected': '{count, plural, one {Rejected # image.} other {Rejected # images.}}',
  'triage.unflagged': '{count, plural, one {Unflagged # image.} other {Unflagged # images.}}',
  'triage.tagged':
    '{count, plural, one {Tagged # image “{tag}”.} other {Tagged # images “{tag}”.}}',
  'triage.untagged':
    '{count, plural, one {Took the tag “{tag}” off # image.} other {Took the tag “{tag}” off # images.}}',
  'triage.boardAdded':
    '{count, plural, one {Added # image to “{board}”.} other {Added # images to “{board}”.}}',
  'triage.boardRemoved':
    '{count, plural, one {Took # image out of “{board}”.} other {Took # images out of “{board}”.}}',
  'triage.unchanged': 'Nothing changed: the images already were so.',
  'triage.refused':
    '{count, plural, one {# image already had 64 tags and was not tagged.} other {# images already had 64 tags and were not tagged.}}',
  'triage.undone':
    '{count, plural, one {Undone: # image is back as it was.} other {Undone: # images are back as they were.}}',
  'triage.redone': '{count, plural, one {Redone for # image.} other {Redone for # images.}}',
  'triage.nothingToUndo': 'There is nothing to undo.',
  'triage.nothingToRedo': 'There is nothing to redo.',
  'triage.noTarget': 'Choose a target board first (Ctrl+B or ⌘B).',
  'triage.target': 'Target board: {board}',
  'triage.targetNone': 'No target board',
  'triage.rating.label': '{stars, plural, =0 {Unrated} one {# star} other {# stars}}',
  'triage.flag.pick': 'Pick',
  'triage.flag.reject': 'Reject',
  'triage.tags.label': 'Tags',
  'triage.boards.label': 'Boards',
} as const;
