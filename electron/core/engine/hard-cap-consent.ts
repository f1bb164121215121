/**
 * The user's consent to send tasks past hard spending caps, as the engine takes it
 * (`SubmitBatch.overHardCaps`). A consent is made only here, and only once the user said yes in
 * main's own dialog (the `OverCapPrompts` port): the engine takes no other object for one, so
 * nothing a caller builds (a payload from the page, parsed into plain data) passes a hard cap. It
 * names the caps as they stood when the user was asked; a cap changed since (lowered, or another
 * cap) still refuses.
 */
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import type { OverCapPrompts, OverCapQuestion } from '../../ports/user-prompts';

export interface HardCapConsent {
  readonly caps: readonly SpendingCap[];
}

const given = new WeakSet<HardCapConsent>();

/** Asks the user through main's dialog; the consent when they agreed, else null (none asked: null). */
export async function askToPassHardCaps(
  prompts: OverCapPrompts | undefined,
  question: OverCapQuestion,
): Promise<HardCapConsent | null> {
  if (!prompts || question.caps.length === 0) return null;
  if (!(await prompts.confirmOverHardCap(question))) return null;
  const consent: HardCapConsent = Object.freeze({ caps: Object.freeze([...question.caps]) });
  given.add(consent);
  return consent;
}

/** The caps a consent made by {@link askToPassHardCaps} names; none for anything else. */
export function consentedCaps(consent: unknown): readonly SpendingCap[] {
  return typeof consent === 'object' && consent !== null && given.has(consent as HardCapConsent)
    ? (consent as HardCapConsent).caps
    : [];
}

/** True when `cap` is one of `caps` exactly (scope, period, unit, kind and amount). */
export function sameCapIn(caps: readonly SpendingCap[], cap: SpendingCap): boolean {
  return caps.some(
    (one) =>
      one.kind === cap.kind &&
      one.period === cap.period &&
      one.unit === cap.unit &&
      one.provider === cap.provider &&
      one.micros === cap.micros,
  );
}
