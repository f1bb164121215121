/**
 * A fan-out target's parameters as its service takes them (core/service/providers/): what each
 * dialect sends of a size and a quality, said in a sentence (a catalogue one, so the compare
 * dialog and the edit panel say it in the window's language) when it is not what was asked.
 * Today's contract (`pictor`) takes both as they are; fal, BFL and DashScope take a size as a
 * width and a height and have no quality; Replicate's FLUX models take an aspect ratio.
 */
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../shared/service/wire';
import { aspectRatio } from '../service';

/** The request a target sends, and what was changed or left out of the one asked for. */
export interface AdaptedRequest {
  readonly request: GenerationRequest;
  readonly notes: readonly Sentence[];
}

function shownSize(size: string): string {
  return size.replace('x', '×');
}

export function adaptRequest(provider: ProviderId, asked: GenerationRequest): AdaptedRequest {
  const service = PROVIDERS[provider].label;
  const notes: Sentence[] = [];
  const { quality, size, ...rest } = asked;
  let request: GenerationRequest = { ...rest };
  if (quality !== undefined) {
    if (PROVIDERS[provider].takesQuality) request = { ...request, quality };
    else notes.push(sentence('error.compare.noQuality', { service, quality }));
  }
  if (size !== undefined) {
    const ratio = provider === 'replicate' ? aspectRatio({ ...asked, size }) : undefined;
    if (provider !== 'replicate') request = { ...request, size };
    else if (ratio !== undefined) {
      request = { ...request, size };
      notes.push(sentence('error.compare.aspectRatio', { service, size: shownSize(size), ratio }));
    } else {
      notes.push(sentence('error.compare.noAspectRatio', { service, size: shownSize(size) }));
    }
  }
  return { request, notes };
}
