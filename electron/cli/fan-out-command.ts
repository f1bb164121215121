/**
 * The shape every command that sends one request to several targets at once takes (`compare`,
 * `edit`, `upscale`: core/fan-out): the plan's notes on stderr (each target left out, in the
 * command's words; what was adapted; soft caps), the plan's refusal (exit 6 over a hard cap, with
 * what to do; exit 2 when nothing can be sent), then the send, whose refusal (a cap reached since
 * the plan, no target left) is said alike with exit 6.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { englishText } from '../../shared/i18n/sentence';
import { SpendingCapError } from '../core/errors';
import type { FanOutPlan, LeftOutTarget } from '../core/fan-out';
import { capRefusalText } from './cap-refusal-text';
import { DEV_PROGRAM, EXIT, cliWording } from './cli-report';
import type { CliIo } from './cli-io';
import { terminalSafe } from './terminal-text';

/** A line on stderr in the CLI's words. */
export const say = (io: CliIo, text: string) => io.stderr(`${terminalSafe(cliWording(text))}\n`);

/** A target's note with its label first, unless the note already starts by naming it. */
function labelled(label: string, note: string): string {
  return note.startsWith(`${label} `) ? note : `${label}: ${note}`;
}

/**
 * The plan's notes on stderr: each target left out (as `leftOut` words it), what was adapted, the
 * soft caps; then its refusal. The exit code when it refuses, else null.
 */
export function sayPlan(
  io: CliIo,
  plan: FanOutPlan,
  leftOut: (left: LeftOutTarget) => string,
): number | null {
  for (const left of plan.leftOut) say(io, leftOut(left));
  for (const target of plan.targets)
    for (const note of target.notes) say(io, labelled(target.label, englishText(note)));
  for (const warning of plan.warnings) say(io, englishText(warning));
  if (plan.refusal === undefined) return null;
  if (plan.capRefusal) io.stderr(capRefusalText(plan.capRefusal, '', io.program ?? DEV_PROGRAM));
  else say(io, englishText(plan.refusal));
  return plan.overCap ? EXIT.submitRefused : EXIT.usage;
}

/**
 * The plan's tasks as stored by `send`; or, when the send is refused by a hard cap or by the
 * use's own error (`unsendable`: no target left), that said and the exit code (6).
 */
export async function sendOrRefuse(
  io: CliIo,
  send: () => Promise<TaskRecord[]>,
  unsendable: abstract new (...args: never[]) => Error,
): Promise<TaskRecord[] | number> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof SpendingCapError)
      io.stderr(
        capRefusalText(error.refusal, cliWording(error.message), io.program ?? DEV_PROGRAM),
      );
    else if (error instanceof unsendable) say(io, error.message);
    else throw error;
    return EXIT.submitRefused;
  }
}
