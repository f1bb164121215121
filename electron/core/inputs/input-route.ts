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
 * An image over the model's own limit is refused whatever the way (the page offers a downscale).
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
  if (!upload || asked === 'inline') return { refused: sentence('error.inputs.tooLargeInline') };
  return { refused: sentence('error.inputs.uploadRefused') };
}
