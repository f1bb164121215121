/**
 * Sentences of planning a compare (merged into shared/i18n/main-messages.ts): keys
 * `error.compare.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * electron/core/compare/compare-plan.ts and core/fan-out/fan-out-adapt.ts: a compare outside its
 * bounds, a target left out, a parameter adapted to what its service takes. The compare dialog shows them
 * in the window's language; the CLI prints their English.
 */
export const compareErrors = {
  // compare-plan.ts: a compare outside its bounds, or with nothing left to send.
  'error.compare.promptCount':
    'A compare takes {min} to {max} prompts; this one has {count}. Nothing was sent.',
  'error.compare.targetCount':
    'A compare takes {min} to {max} targets; this one has {count}. Nothing was sent.',
  'error.compare.badTarget':
    'A target of this compare is not valid (a service, and at most a model, a size, a quality, a count of {countMin} to {countMax} and an address). Nothing was sent.',
  'error.compare.noTargetLeft':
    'No target of this compare can be sent: each is left out above. Nothing was sent.',
  // compare-plan.ts: a target left out (its key's refusals are error.submit.*).
  'error.compare.noAddress': '{service} has no address of its own: give it one (a base URL).',
  // fan-out-adapt.ts: a parameter its service lacks, or takes in another form.
  'error.compare.noQuality': '{service} has no quality setting: “{quality}” is left out.',
  'error.compare.aspectRatio': '{service} takes an aspect ratio: {size} → {ratio}.',
  'error.compare.noAspectRatio':
    '{service} takes an aspect ratio, and {size} is none it offers: the size is left out (its default).',
  // param-mapping.ts: a model option of the form that a target's model does not take. Each front
  // says it under its own name of the target ("Adapted: …"), so the sentence names none.
  'error.compare.paramNotTaken': 'This model has no option “{name}”: it is not sent there.',
  'error.compare.paramNotFit':
    'This model does not take “{value}” for “{name}”: the option is not sent there (its default).',
  'error.compare.seedNotTaken': 'This model takes no seed: it draws its own.',
} as const;
