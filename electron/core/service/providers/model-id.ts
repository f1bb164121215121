/**
 * A model id that goes into a request path (fal's `fal-ai/flux/schnell`, Replicate's
 * `owner/name`, BFL's `flux-pro-1.1`): checked part by part, so a model typed by the user or read
 * from an imported record can never add a `..`, a query or another host to the path the key goes to.
 */
import { sentence } from '../../../../shared/i18n/sentence';
import { ServiceError } from '../service-error';

const PART = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/**
 * The model's parts, between `min` and `max` of them.
 * @throws ServiceError of kind `config` (nothing was sent) naming the model and the service.
 */
export function modelParts(
  model: string | undefined,
  service: string,
  min: number,
  max: number,
): string[] {
  const text = model?.trim() ?? '';
  if (text === '') {
    throw new ServiceError({
      kind: 'config',
      message: sentence('error.service.modelRequired', { service }),
      mayHaveReachedService: false,
    });
  }
  const parts = text.split('/');
  const usable =
    parts.length >= min &&
    parts.length <= max &&
    parts.every((part) => PART.test(part) && !/^\.+$/.test(part));
  if (!usable) {
    throw new ServiceError({
      kind: 'config',
      message: sentence('error.service.modelIdUnusable', { model: text.slice(0, 80), service }),
      mayHaveReachedService: false,
    });
  }
  return parts;
}

/** An id from the service as one encoded path segment (checked by the client's checkTaskId first). */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
