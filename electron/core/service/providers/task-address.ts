/**
 * Whether a task can be asked about from its id and its request alone, without the addresses
 * the service gave at submit (a task tracked by id, or imported): fal finds a request only under
 * the address of the model it was made with; the other services need the id only.
 */
import type { ProviderId } from '../../../../shared/domain/providers';
import type { Sentence } from '../../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { ServiceError } from '../service-error';
import { profileOf } from './profiles';

/** An id of the shape every service takes; only the address built around it is looked at. */
const SOME_ID = 'pictor-task-address';

/**
 * Why `provider`'s task cannot be found from an id and `request` (no model, or one its service
 * cannot take), as the sentence a poll would fail with; null when it can be.
 */
export function taskAddressProblem(
  provider: ProviderId | undefined,
  request: GenerationRequest,
): Sentence | null {
  try {
    profileOf(provider).poll(SOME_ID, {}, request);
    return null;
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'config' && error.sentence) {
      return error.sentence;
    }
    throw error;
  }
}
