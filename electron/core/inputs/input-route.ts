/**
 * How a task's inputs travel to one model: inline in the request when the model takes that and
 * every input fits, else the service's upload step, as the user's route and the "never upload
 * inputs" setting allow. Pure: the plan shows it before anything is sent, and the send uses it.
 */
import type { InputImage, InputRoute } from '../../../shared/domain/image-inputs';
import type { InputTransport, ModelCapabilities } from '../../../shared/domain/model-capabilities';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';

export type InlineTransport = Extract<InputTransport, { kind: 'inline-base64' | 'data-uri' }>;
export type UploadTransport = Extract<InputTransport, { kind: 'upload' }>;

/** The way chosen, or why none may be taken. */
export type RouteChoice =
  | { readonly route: 'inline'; readonly transport: InlineTransport }
  | { readonly route: 'upload'; readonly transport: UploadTransport }
  | { readonly refused: Sentence };

/**
 * The way `images` go to a model with `capabilities`.
 * - `auto`: inline when offered and every image fits its limit, else upload (unless `neverUpload`);
 * - `inline`: inline only; `upload`: upload only (refused under `neverUpload`);
 * - `never`: inline or refused.
 * An image over the model's own limit is refused whatever the way (the page offers a downscale);
 * any other refusal says what stood in the way ({@link refusalOf}).
 */
export function chooseRoute(
  capabilities: ModelCapabilities,
  images: readonly InputImage[],
  asked: InputRoute,
  neverUpload: boolean,
): RouteChoice {
  const largest = images.reduce((most, image) => Math.max(most, image.bytes), 0);
  const widest = images.reduce((most, image) => Math.max(most, image.width, image.height), 0);
  if (largest > capabilities.maxBytes || widest > capabilities.maxSide) {
    return {
      refused: sentence('error.inputs.tooLarge', {
        bytes: capabilities.maxBytes,
        side: capabilities.maxSide,
      }),
    };
  }
  const inline = capabilities.transports.find(
    (transport): transport is InlineTransport =>
      transport.kind === 'inline-base64' || transport.kind === 'data-uri',
  );
  const upload = capabilities.transports.find(
    (transport): transport is UploadTransport => transport.kind === 'upload',
  );
  const fits = inline !== undefined && images.every((image) => image.bytes <= inline.maxBytes);
  const mayUpload = !neverUpload && asked !== 'inline' && asked !== 'never';
  if (asked !== 'upload' && inline && fits) return { route: 'inline', transport: inline };
  if (mayUpload && upload) return { route: 'upload', transport: upload };
  return { refused: refusalOf({ inline, fits, upload, asked, neverUpload }) };
}

/**
 * Why no way was left, in words that are true of this model and this task: a way the model
 * does not offer is named as such, an image "too large" only when one is over the inline limit
 * of a model that has one, "uploads are turned off" only when the setting or the task's
 * `never` forbids them.
 */
function refusalOf(why: {
  readonly inline: InlineTransport | undefined;
  readonly fits: boolean;
  readonly upload: UploadTransport | undefined;
  readonly asked: InputRoute;
  readonly neverUpload: boolean;
}): Sentence {
  const { inline, upload, asked } = why;
  if (asked === 'upload') {
    return sentence(upload ? 'error.inputs.uploadOff' : 'error.inputs.noUpload');
  }
  if (!inline) {
    return sentence(asked === 'inline' ? 'error.inputs.onlyUpload' : 'error.inputs.uploadRefused');
  }
  // Inline is offered and an image is over its limit (else it would have gone inline).
  const bytes = inline.maxBytes;
  if (!upload) return sentence('error.inputs.tooLargeInline');
  if (asked === 'inline') return sentence('error.inputs.inlineTooLarge', { bytes });
  return sentence('error.inputs.inlineTooLargeUploadsOff', { bytes });
}
