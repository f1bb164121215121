/**
 * Sentences of edits (merged into shared/i18n/main-messages.ts): keys `error.edit.*`, ICU
 * MessageFormat, typographic apostrophes (’), placeholders for every value.
 * electron/core/edit/: an edit's plan (a target left out, a value adapted, the edit refused) and
 * the inputs the page hands main (a file opened, a library image, a mask, a smaller copy). The
 * edit dialog shows them in the window's language; the CLI prints their English.
 */
export const editErrors = {
  // edit-plan.ts: an edit outside its bounds, or with inputs main does not hold.
  'error.edit.targetCount':
    'An edit takes {min} to {max} targets; this one has {count}. Nothing was sent.',
  'error.edit.badInput':
    'This edit is not valid (an instruction, its images, and targets each with a service and a model). Nothing was sent.',
  'error.edit.inputsInvalid':
    'The images of this edit do not fit together (a mask of another size than its image, a fill without a mask, an upscale without a factor). Nothing was sent.',
  'error.edit.inputMissing':
    'An image of this edit is no longer in Pictor’s input store: choose it again. Nothing was sent.',
  'error.edit.noTargetLeft':
    'No target of this edit can be sent: each is left out above. Nothing was sent.',
  // edit-plan.ts: a target left out.
  'error.edit.modelCannot':
    '{model} cannot do what this edit asks (its operation, mask, references or factor). Models that can: {models}.',
  'error.edit.noModelCan':
    '{model} cannot do what this edit asks, and no model Pictor knows can: change the operation, the mask or the references.',
  'error.edit.consentNeeded':
    '{service} would make the uploaded images public links (anyone with the link can see them): agree to that first, or send them inside the request. Nothing was sent to {service}.',
  // edit-plan.ts: a value adapted to what its model allows.
  'error.edit.safetyClamped':
    '{service} allows a safety tolerance of at most {max} with an input image: {asked} is sent as {max}.',
  // edit-inputs.ts: an image the page hands main.
  'error.edit.fileUnreadable':
    'Pictor could not read this file: it is not a regular file, or it is larger than {max, number} bytes. Nothing was stored.',
  'error.edit.maskNotPng': 'A mask must be a PNG image; this one is not. Nothing was stored.',
  'error.edit.maskSize':
    'The mask is {maskSize} pixels and its image {size}: a mask must be its image’s exact size. Nothing was stored.',
  'error.edit.downscaleFailed':
    'Pictor could not make a smaller copy of this image. Nothing was stored.',
  'error.edit.cannotFit':
    'Even at {side, number} pixels a side this image is larger than {bytes, number} bytes. Nothing was stored.',
  // The open dialog of an input image (adapters/input-dialogs.ts).
  'dialog.openImage': 'Open an Image',
  'dialog.imageFiles': 'Images (PNG, JPEG, WebP)',
} as const;
