/**
 * Sending an edit: the services whose uploads become public links are asked about once each
 * (the user's yes goes to main, `inputs:consent`), then main plans again and sends.
 */
import type { ProviderId } from '../../../shared/domain/providers';
import type { EditInputPayload, EditPlanOutput } from '../../../shared/ipc/inputs-contract';

/**
 * The services of `plan` the user must still agree to before anything is sent: a target whose
 * inputs would be uploaded as public links, on a service not agreed to yet (main's word, or this
 * session's).
 */
export function consentsNeeded(
  plan: EditPlanOutput,
  input: EditInputPayload,
  consented: readonly ProviderId[],
): ProviderId[] {
  const needed = plan.targets
    .filter(({ inputs }) => inputs.route === 'upload' && inputs.publicLinks && inputs.consentNeeded)
    .flatMap(({ slot }) => input.targets[slot - 1]?.provider ?? [])
    .filter((provider) => !consented.includes(provider));
  return [...new Set(needed)];
}
