/**
 * Error sentences of prompt templates (merged into shared/i18n/main-messages.ts): keys
 * `error.template.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * shared/domain/template-language.ts and template-expand.ts, for the compose form's preview and
 * the CLI alike. A sentence about a place in the template names its line and column; braces are
 * named in words, since a literal one is ICU syntax.
 */
export const templateErrors = {
  'error.template.unclosedChoice':
    'The opening brace at line {line}, column {column} starts a choice that is never closed. Add a closing brace after its last alternative, or put a backslash before the brace to keep it as text.',
  'error.template.unmatchedClose':
    'The closing brace at line {line}, column {column} closes nothing. Remove it, or put a backslash before it to keep it as text.',
  'error.template.unclosedVariable':
    'The double opening brace at line {line}, column {column} starts a variable that is never closed. End the variable with a double closing brace.',
  'error.template.badVariableName':
    '“{name}” at line {line}, column {column} is not a variable name. A name has up to 64 letters, digits, underscores or hyphens and starts with a letter or an underscore.',
  'error.template.badListName':
    'The word list at line {line}, column {column} is not written correctly. Write its name between double underscores, using letters, digits, hyphens and single underscores, or put a backslash before an underscore to keep it as text.',
  'error.template.unknownList':
    'There is no word list “{name}” (line {line}, column {column}). Create the list, or correct its name.',
  'error.template.emptyList':
    'The word list “{name}” (line {line}, column {column}) has no words. Add words to it, or remove it from the template.',
  'error.template.missingValue':
    'The variable “{name}” (line {line}, column {column}) has no value. Fill it in, or give it a default in the template after an equals sign.',
  'error.template.emptyResult':
    'Prompt {number} of this template is empty. Give its choices and variables some words.',
  'error.template.resultTooLong':
    'Prompt {number} of this template is longer than {limit} characters. Shorten the template or its values.',
  'error.template.bodyTooLong': 'The template is longer than {limit} characters. Shorten it.',
  'error.template.tooManyPrompts':
    'The template expands to {count} prompts; the limit is {limit}. Draw a random sample of them instead, or remove some choices.',
  'error.template.badCount':
    'The number of random prompts must be a whole number from 1 to {limit}.',
  'error.template.tooDeep':
    'The choice at line {line}, column {column} is nested more than {limit} levels deep. Flatten some choices.',
  'error.template.tooComplex':
    'The template has more than {limit} parts (text, choices, variables and lists). Simplify it.',
} as const;
