/**
 * A service named in a sentence (`{service}`) by its label (shared/domain/providers.ts): the
 * others' are brands (fal.ai, Replicate, ComfyUI), the same in every language, but the generic
 * service's is a description ("Image task service"), and an English one in a German sentence read
 * "Image task service hat keine eigene Adresse". That label is written as the reader's catalogue
 * names it (`service.pictor`), in sentences raised with it and in those stored before.
 */
import { PROVIDERS } from '../domain/providers';

/** `params` with a `service` that is the generic service's label written by `name`. */
export function withServiceNames(
  params: Readonly<Record<string, string | number>>,
  name: () => string,
): Readonly<Record<string, string | number>> {
  return params['service'] === PROVIDERS.pictor.label ? { ...params, service: name() } : params;
}
