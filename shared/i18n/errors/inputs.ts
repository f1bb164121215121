/**
 * Sentences of images as inputs (merged into shared/i18n/main-messages.ts): keys
 * `error.inputs.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * electron/core/inputs/: how inputs travel to a model, and why they cannot.
 */
export const inputErrors = {
  // input-route.ts: no way for the inputs to reach the model.
  'error.inputs.tooLarge':
    'An input image is larger than this model takes ({bytes, number} bytes, {side, number} pixels a side): make it smaller first. Nothing was sent.',
  'error.inputs.tooLargeInline':
    'An input image is too large to go inside the request, and this model takes no upload. Nothing was sent.',
  'error.inputs.inlineTooLarge':
    'An input image is larger than this model takes inside the request ({bytes, number} bytes at most): let Pictor upload it, or make it smaller. Nothing was sent.',
  'error.inputs.inlineTooLargeUploadsOff':
    'An input image is larger than this model takes inside the request ({bytes, number} bytes at most), and uploads are turned off (“Never upload inputs”): make it smaller first. Nothing was sent.',
  'error.inputs.uploadRefused':
    'This model takes its images only by upload, and uploads are turned off (“Never upload inputs”). Nothing was sent.',
  'error.inputs.onlyUpload':
    'This model takes its images only by upload, not inside the request: let Pictor upload them. Nothing was sent.',
  'error.inputs.noUpload':
    'This model takes no upload: its images go inside the request. Nothing was sent.',
  'error.inputs.uploadOff':
    'This task asks for its images to be uploaded, and uploads are turned off (“Never upload inputs”): send them inside the request instead. Nothing was sent.',
  // settings-fields.ts: the two settings of inputs.
  'error.inputs.ruleNeverUpload': '“Never upload inputs” must be switched on or off.',
  'error.inputs.ruleConsent':
    'The services allowed to make public links of uploads must be a list of Pictor’s services, each named once.',
  // input-store.ts: what the library’s input folder takes and gives back.
  'error.inputs.format':
    'This file is not a PNG, JPEG or WebP image, so it cannot be used as an input. Choose another file.',
  'error.inputs.damaged':
    'This image cannot be read (its header is damaged or does not match its contents), so it cannot be used as an input. Choose another file.',
  'error.inputs.tooBig':
    'This image is larger than Pictor takes as an input ({bytes, number} bytes and {side, number} pixels a side at most): make it smaller first.',
  'error.inputs.missing':
    'An input image of this task is no longer in the library’s “inputs” folder: add it again. Nothing was sent.',
  'error.inputs.tampered':
    'An input image in the library’s “inputs” folder was changed after it was added, so Pictor does not send it: add it again. Nothing was sent.',
  'error.inputs.unsafe':
    'The library’s “inputs” folder is a link or leads outside the library, so Pictor neither reads nor writes there: make it a plain folder again.',
  // input-quota.ts: the bound on inputs no task names.
  'error.inputs.storeFull':
    'The library’s “inputs” folder already holds as many images not yet used by any task as Pictor keeps ({bytes, number} bytes or {files, number} images; unused ones are cleared after a day), so this image was not added. Send or close the edits in hand, or try again tomorrow.',
  // send-inputs.ts and the uploads: on the way to the service.
  'error.inputs.noModel': 'This model takes no input image. Nothing was sent.',
  'error.inputs.noSender':
    'This task has input images, and this Pictor was started without its input store, so it cannot send them. Nothing was sent.',
  'error.inputs.consentNeeded':
    'Uploading inputs to {service} makes them public links (anyone with the link can open them), and you have not agreed to that for this service. Nothing was sent.',
  'error.inputs.noUploader':
    'These input images would go to {service} by upload, and Pictor cannot upload to {service} yet. Nothing was sent.',
  'error.inputs.uploadRejected':
    '{service} refused the upload of an input image (HTTP {status}). Nothing was sent.',
  'error.inputs.uploadAnswer':
    '{service} answered the upload of an input image with something Pictor cannot use. Nothing was sent.',
  'error.inputs.uploadNetwork':
    'The upload of an input image to {service} did not get through: check the connection and try again. Nothing was sent.',
  'error.inputs.uploadTarget':
    '{service} asked for an input image to go to an address Pictor does not send images to ({host}). Nothing was sent.',
  'error.inputs.linkNotPublic':
    'An input image’s link points to a local or private address ({host}) the service cannot reach. Nothing was sent.',
} as const;
