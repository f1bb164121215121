/**
 * Error sentences of a submit's target (merged into shared/i18n/main-messages.ts): keys
 * `error.submit.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * electron/core/engine/target-check.ts: the service a submit names, refused before anything is
 * stored or sent; electron/core/batch/resend-records.ts: the tasks a batch's Rerun names.
 */
export const submitErrors = {
  'error.submit.noKeyThere':
    'Nothing was sent: Pictor has no API key it may send to {host}. A key goes only to the service address it was entered for in Settings.',
  'error.submit.otherService':
    'Nothing was sent: {host} is the address of another kind of service in Settings, and its key goes only with that service’s tasks.',
  'error.submit.demoNotRunning':
    'Nothing was sent: the built-in demo service is not running. Start Pictor again to use it.',
  'error.submit.demoDialect':
    'Nothing was sent: {endpoint} is no built-in demo service for this kind of service. Each demo speaks one service’s dialect and takes that service’s tasks only.',
  // electron/core/batch/resend-records.ts: a batch's Rerun names tasks of one batch only.
  'error.submit.notOneBatch':
    'Nothing was sent: these tasks are not all from one batch on one service. Rerun one batch at a time.',
} as const;

/**
 * The refusal of a submit to a service Pictor has no key for: the window says it with the
 * service's name and a link to its key (the compose form's missing-key notice).
 */
export const NO_KEY_SENTENCES: ReadonlySet<string> = new Set<keyof typeof submitErrors>([
  'error.submit.noKeyThere',
]);
