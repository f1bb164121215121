/**
 * Sentences of running a prompt template (merged into shared/i18n/main-messages.ts): keys
 * `error.templateRun.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every
 * value. electron/core/batch/template-runs.ts, for the window's preview and the CLI alike.
 */
export const templateRunErrors = {
  'error.templateRun.notFound':
    'This template is no longer in the library. Choose another template, or import it again.',
  'error.templateRun.badValues':
    'The template’s values cannot be used: give at most {max} values, each under one of its variables’ names and at most {chars} characters long.',
  'error.templateRun.tooManyTasks':
    '{prompts} prompts with {count} images each make {tasks} tasks, and one submit sends at most {max}. Draw fewer prompts, or ask for fewer images of each.',
  'error.templateRun.negativeNotSent':
    'The negative prompt is not sent: {service} takes no negative prompt.',
} as const;
