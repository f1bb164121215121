/**
 * Error sentences of a model's own options (merged into shared/i18n/main-messages.ts): keys
 * `error.params.*`. shared/domain/model-params.ts.
 */
export const paramErrors = {
  'error.params.unknown': 'The model {model} has no option “{name}”.',
  'error.params.unknownNoModel':
    'No model is named, so there is no option “{name}” to set: name the model whose options these are.',
  'error.params.notChoice': 'The option “{name}” takes one of: {choices}.',
  'error.params.notWhole': 'The option “{name}” takes a whole number from {min} to {max}.',
  'error.params.outOfRange': 'The option “{name}” takes a number from {min} to {max}.',
  'error.params.offStep': 'The option “{name}” takes a multiple of {step} from {min} to {max}.',
  'error.params.notSwitch': 'The option “{name}” takes true or false.',
  'error.params.tooLong': 'The option “{name}” takes text of at most {max} characters.',
  'error.params.schemaNotPublished':
    '{service} publishes no options for its models: the options Pictor knows stay in use.',
  'error.params.schemaUnreached':
    'The options of {model} could not be fetched from {service}: the options Pictor knows stay in use. Check the connection, then try again.',
  'error.params.schemaUnusable':
    'The options {service} published for {model} are too large, too deep, loop on themselves or hold nothing Pictor can show: the options Pictor knows stay in use.',
  'error.params.schemaCarriesKey':
    'The options {service} published for {model} contain an API key Pictor holds, so Pictor did not keep them: the options Pictor knows stay in use. Report this to the service’s provider.',
  'error.params.schemaMoved':
    '{service} sent the request for the options of {model} to another address ({host}); Pictor did not follow it, and the options Pictor knows stay in use.',
  // After a settings fault (no key, an address refused) that stopped a model's options' fetch.
  'error.params.shippedInUse': 'The options Pictor knows for {model} stay in use.',
  'error.params.schemaFile':
    'The file holds no options Pictor can use: give a JSON schema of at most 512 KB whose properties are choices, numbers, switches or text.',
} as const;
