/**
 * A service named in a sentence (`{service}`) by its label (shared/domain/providers.ts): the
 * others' are brands (fal.ai, Replicate, ComfyUI), the same in every language, but the generic
 * service's is a description ("Image task service"), and an English one in a German sentence read
 * "Image task service hat keine eigene Adresse". That label is written as the reader's catalogue
 * names it (`service.pictor`), in sentences raised with it and in those stored before.
 */
import { PROVIDERS } from '../domain/providers';
import { mainMessages, type MainMessageKey } from './main-messages';

/** `params` with a `service` that is the label of a service the catalogue names (`service.<id>`). */
export function withServiceNames(
  params: Readonly<Record<string, string | number>>,
  name: (key: MainMessageKey) => string,
): Readonly<Record<string, string | number>> {
  const label = params['service'];
  if (typeof label !== 'string') return params;
  const named = Object.values(PROVIDERS).find((facts) => facts.label === label);
  const key = named ? `service.${named.id}` : null;
  return key !== null && Object.hasOwn(mainMessages, key)
    ? { ...params, service: name(key as MainMessageKey) }
    : params;
}
