/**
 * A hard cap's refusal as the command line says it, from the cap's word as data
 * (core/costs/cap-check.ts, `SpendingCapError.refusal`): first the cap, what its period has spent
 * and what the submit adds, then each price it lacks, naming the command that sets it
 * (`pictor prices set …`) where the window would link to the price's field. Each line leaves
 * through terminalSafe on its own: a model name comes from the user or a service.
 */
import { PROVIDERS } from '../../shared/domain/providers';
import type { CostUnit } from '../../shared/domain/task-cost';
import { englishMoney } from '../../shared/i18n/sentence';
import type { CapWord as CapForecast, MissingPrice } from '../../shared/ipc/cost-contract';
import { commandHint, terminalLines, terminalSafe } from './terminal-text';

const plural = (count: number, one: string, many: string): string =>
  `${count} ${count === 1 ? one : many}`;

/** The cap, what it has spent and what the submit adds: the refusal's first sentence. */
function leadOf(refusal: CapForecast): string {
  const { cap } = refusal;
  const scope = cap.provider === null ? 'all services' : PROVIDERS[cap.provider].label;
  const period = cap.period === 'day' ? 'daily' : 'monthly';
  const spent = englishMoney(refusal.spentMicros, cap.unit);
  const adding = englishMoney(refusal.addingMicros, cap.unit);
  return `Nothing was submitted: ${spent} of your ${englishMoney(cap.micros, cap.unit)} ${period} hard cap for ${scope} is spent; this submit adds about ${adding}.`;
}

/** How to raise the cap that was passed. */
function raiseOf(refusal: CapForecast, program: string): string {
  const { cap } = refusal;
  const provider = cap.provider === null ? [] : ['--provider', cap.provider];
  const words = ['caps', 'set', '--period', cap.period, '--unit', unitWord(cap.unit), ...provider];
  return `That passes the cap. Raise it with: ${commandHint(program, [...words, '--amount', 'AMOUNT'])}`;
}

/** One price the cap lacks, and the command that sets it. */
function missingLine(
  missing: MissingPrice,
  unit: CostUnit,
  period: string,
  program: string,
): string {
  const service = PROVIDERS[missing.service].label;
  const model = missing.model ? ` (${missing.model})` : '';
  const what =
    missing.of === 'submit'
      ? `this submit's ${plural(missing.tasks, 'task', 'tasks')} of ${service}${model}`
      : `${plural(missing.tasks, 'task', 'tasks')} of ${service}${model} from ${period}`;
  // A price for this submit's model; the period's tasks are covered by one for every model.
  const modelOption = missing.of === 'submit' && missing.model ? ['--model', missing.model] : [];
  const command = commandHint(program, [
    ...['prices', 'set', '--provider', missing.service, ...modelOption],
    ...['--amount', 'PRICE', '--unit', unitWord(unit)],
  ]);
  return `It cannot count ${what}: no price in ${unitWord(unit)}. Set one with: ${command}`;
}

function unitWord(unit: CostUnit): string {
  return unit;
}

/**
 * The refusal's lines for the terminal (each safe, newline-ended): from its data when the error
 * carries it, else `fallback` (main's sentence, in the CLI's words).
 */
export function capRefusalText(
  refusal: CapForecast | undefined,
  fallback: string,
  program: string,
): string {
  if (refusal === undefined) return `${terminalSafe(fallback)}\n`;
  const period = refusal.cap.period === 'day' ? 'today' : 'this month';
  const lines = [leadOf(refusal)];
  if (refusal.verdict === 'over') lines.push(raiseOf(refusal, program));
  for (const missing of refusal.missing)
    lines.push(missingLine(missing, refusal.cap.unit, period, program));
  if (refusal.verdict !== 'over') lines.push('Then submit again.');
  return terminalLines(lines);
}
