/**
 * `--amount` of `prices set` and `caps set`, read as people type it (shared/domain/cost-amounts.ts:
 * `0.05`, `.05`, `$0.05`, `0,05` where the comma cannot group thousands, `5 USD`) within the
 * bounds the window, IPC and the stored schemas share. Each refusal is a sentence that names the
 * value and the range allowed (exit 2): never a schema's words, never a value rounded to 0.
 */
import {
  amountRange,
  readTypedAmount,
  type AmountKind,
  type AmountProblem,
} from '../../shared/domain/cost-amounts';
import { formatMicros, type CostUnit } from '../../shared/domain/task-cost';
import { englishMoney } from '../../shared/i18n/sentence';
import { quotedWord, UsageError } from '../core/command-line';
import { terminalSafe } from './terminal-text';

/**
 * The value as a sentence may repeat it: an amount someone typed. A long, wordy or key-like value
 * (a key pasted in the wrong place) is not echoed (user-words.ts); it is "the value given".
 */
export function quotedValue(raw: string): string {
  return terminalSafe(quotedWord(raw));
}

function problemText(problem: AmountProblem, unit: CostUnit, kind: AmountKind): string {
  const range = amountRange(kind, unit);
  const [min, max, step] = [range.min, range.max, range.step].map((micros) =>
    englishMoney(micros, unit),
  );
  const what = kind === 'price' ? 'a price' : 'a cap';
  switch (problem.kind) {
    case 'negative':
      return `is negative; ${what} is from ${min} to ${max}.`;
    case 'finerThanStep':
      return `is finer than ${step}, the smallest step Pictor keeps: type 0, or an amount from ${step} to ${max}.`;
    case 'tooLarge':
      return `is more than ${max}, the most ${what} may be.`;
    case 'ambiguous':
      return `could be read as ${String(problem.whole)} or as ${String(problem.decimal)}: type ${String(problem.whole)} or ${String(problem.decimal)}.`;
    case 'otherUnit':
      return `is not in ${unit}: type the amount in ${unit}, or give its unit with --unit.`;
    default:
      return `is not an amount: type a number from ${formatMicros(range.min)} to ${formatMicros(range.max)} (${unit}), such as 0.04 or 5.`;
  }
}

/** The micros of `--amount` in `unit`, or a UsageError that says what to type instead. */
export function amountOf(raw: string | undefined, unit: CostUnit, kind: AmountKind): number {
  const reading = readTypedAmount(raw ?? '', { unit, kind });
  if (reading.ok) return reading.micros;
  if (raw === undefined || reading.problem.kind === 'empty') {
    const { max } = amountRange(kind, unit);
    throw new UsageError(
      `--amount needs a value: a number from 0 to ${formatMicros(max)} (${unit}), such as 0.04.`,
    );
  }
  throw new UsageError(`--amount ${quotedValue(raw)} ${problemText(reading.problem, unit, kind)}`);
}
