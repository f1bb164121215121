/**
 * Error sentences of prompt templates' records and files (merged into shared/i18n/main-messages.ts):
 * keys `error.templateFile.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for
 * every value. Names (shared/domain/prompt-template.ts), reading and writing template files
 * (electron/core/templates/), for the window and the CLI.
 */
export const templateFileErrors = {
  // shared/domain/prompt-template.ts
  'error.templateFile.nameEmpty': 'A template needs a name.',
  'error.templateFile.nameTooLong': 'A template’s name can have at most {max} characters.',
  'error.templateFile.nameCharacter': 'A template’s name cannot contain the character {character}.',
  // electron/core/templates/template-files.ts: the whole file
  'error.templateFile.tooLarge':
    'The file is larger than {max} MB, more than a template file holds. Choose another file.',
  'error.templateFile.notAFile': 'This is not a file Pictor can read templates from.',
  'error.templateFile.empty': 'The file is empty: it holds no templates.',
  'error.templateFile.notUtf8':
    'The file is not UTF-8 text, so Pictor cannot read templates from it. Save it as UTF-8 and try again.',
  'error.templateFile.notJson':
    'The file is not valid JSON, so Pictor cannot read templates from it.',
  'error.templateFile.notPictor': 'The file is not a Pictor template file.',
  'error.templateFile.newerVersion':
    'The file was written by a newer version of Pictor (template format {version}). Update Pictor to read it.',
  'error.templateFile.notList':
    'The file does not hold a list of styles: this format is a JSON list, starting with “[”.',
  'error.templateFile.tooMany':
    'The file holds more than {max} templates; Pictor reads at most {max} from one file.',
  'error.templateFile.csvHeader':
    'The file’s first line must name its columns, with at least “name” and “prompt”.',
  'error.templateFile.csvQuote':
    'The quote opened on line {line} is never closed, so the rest of the file cannot be read.',
  // one template of a file
  'error.templateFile.csvAfterQuote':
    'This line has text right after a closing quote; a quoted value ends at a comma or at the end of the line.',
  'error.templateFile.entryInvalid': 'This entry is not a template Pictor can read.',
  'error.templateFile.textTooLong':
    'A template’s prompt can have at most {max} characters; this one has {count}.',
  'error.templateFile.renamed':
    'A template named “{name}” already exists, so this one was imported as “{renamed}”.',
  // exporting to another application's format
  'error.templateFile.exportFeature':
    'The template “{name}” uses more than {format} can hold (choices, wildcards or other placeholders), so it was left out of the file.',
  'error.templateFile.exportNoPrompt':
    'The template “{name}” does not place your prompt anywhere, and {format} would add your prompt before it, so it was left out of the file.',
  'error.templateFile.exportPresetsLost':
    'The template “{name}” has settings for services, which {format} has no place for: the file holds its prompts only.',
};
