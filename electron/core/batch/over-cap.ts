/**
 * The spending caps' word on a batch before it is sent, as a template run and a template batch's
 * Rerun take it: the hard caps it would pass (from the cost book's preview, as the admission will
 * judge it), and, when there are some, the user's answer in main's own dialog (`OverCapPrompts`).
 * Without a yes (or where nobody can be asked: the CLI, a harness) the batch is refused with the
 * first cap's sentence (SpendingCapError: the CLI's exit 6) and nothing is stored or sent.
 */
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import type { Sentence } from '../../../shared/i18n/sentence';
import type { OverCapPrompts } from '../../ports/user-prompts';
import type { CapForecast, CapVerdict } from '../costs';
import { askToPassHardCaps, type HardCapConsent } from '../engine';
import { SpendingCapError } from '../errors';

/** The hard caps a batch would pass: the first one's refusal, and every one of them. */
export interface HardCapBreach {
  readonly refusal: Sentence;
  /** The first cap's word as data (SpendingCapError.refusal). */
  readonly refused?: CapForecast;
  readonly caps: readonly SpendingCap[];
}

/** The hard caps `preview` says the batch passes; null when none refuses it. */
export function hardCapBreach(preview: CapVerdict): HardCapBreach | null {
  if (!preview.refusal) return null;
  const hard = preview.forecasts.filter((forecast) => forecast.cap.kind === 'hard');
  return {
    refusal: preview.refusal,
    ...(preview.refused ? { refused: preview.refused } : {}),
    caps: hard.map((forecast) => forecast.cap),
  };
}

/**
 * The consent to send `tasks` tasks past `breach` (none needed: null), asked in main's dialog.
 * @throws SpendingCapError with the cap's sentence when the user did not agree or nobody could
 *   be asked.
 */
export async function consentOverCaps(
  breach: HardCapBreach | null,
  tasks: number,
  prompts: OverCapPrompts | undefined,
): Promise<HardCapConsent | null> {
  if (!breach) return null;
  const consent = await askToPassHardCaps(prompts, {
    refusal: breach.refusal,
    caps: breach.caps,
    tasks,
  });
  if (!consent)
    throw new SpendingCapError(breach.refusal, {
      code: 'bad_input',
      ...(breach.refused ? { refusal: breach.refused } : {}),
    });
  return consent;
}
