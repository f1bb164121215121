/**
 * `pictor generate --template NAME`: the template read from the library, expanded and priced in
 * the core (TemplateRuns: the same plan the window shows), then either printed (`--dry-run`:
 * every prompt, the estimate, the caps; nothing stored or sent) or submitted as one batch and
 * watched like any generate. Over a hard spending cap nothing is stored or sent: the cap's
 * sentence, exit 6 (a command line has nobody to ask). A template that does not expand (a
 * variable without a value, an unknown word list, more than 100 tasks) is exit 2 with the
 * sentence, which names the line and column.
 */
import { englishMoney, englishText, type Sentence } from '../../shared/i18n/sentence';
import type { TaskRecord } from '../../shared/domain/task-record';
import { DEMO_SERVICE_LABEL } from '../../shared/domain/submit-target';
import type { TemplatePlan, TemplateRunInput } from '../core/batch';
import { SpendingCapError, UserFacingError } from '../core/errors';
import type { PictorCore } from '../core/pictor-core';
import type { Command } from './cli-command';
import type { TemplateRunChoice } from './template-run-args';
import { DEV_PROGRAM, EXIT } from './cli-report';
import { capRefusalText } from './cap-refusal-text';
import type { CliIo } from './cli-io';
import { cliWording } from './cli-report';
import { jsonSafe, terminalSafe } from './terminal-text';
import { quotedOr } from '../core/command-line';

type Generate = Command & { name: 'generate'; template: TemplateRunChoice };

/** The run `command` asks for, the template read by name (null: no such template). */
function inputOf(core: PictorCore, command: Generate): TemplateRunInput | null {
  const choice = command.template;
  const stored = core.templates.byName(choice.name);
  if (!stored?.template) return null;
  const { prompt, model, size, quality } = command;
  return {
    templateId: stored.template.id,
    values: choice.values,
    prompt,
    mode: choice.mode,
    target: command.target,
    request: { model, size, quality },
    count: command.count,
    ...(command.board === undefined ? {} : { board: command.board }),
  };
}

const said = (sentence: Sentence): string => terminalSafe(cliWording(englishText(sentence)));

/** The estimate in words: each unit's total, the free tasks, and the tasks nothing could price. */
function estimateLine(plan: TemplatePlan): string {
  const { totals, unknownTasks, freeTasks } = plan.estimate;
  if (freeTasks === plan.tasks) return `free (${DEMO_SERVICE_LABEL})`;
  const parts = totals.map((total) => englishMoney(total.micros, total.unit));
  if (freeTasks > 0) parts.push(`${freeTasks} free task(s)`);
  if (unknownTasks > 0) parts.push(`${unknownTasks} task(s) with no known price`);
  return parts.length === 0 ? 'no cost known' : parts.join(' + ');
}

function printPlan(plan: TemplatePlan, io: CliIo, json: boolean): void {
  if (json) {
    const { template, prompts, tasks, estimate, negative, record } = plan;
    const out = {
      template,
      prompts,
      tasks,
      seed: record.seed ?? null,
      estimate: {
        totals: estimate.totals,
        unknownTasks: estimate.unknownTasks,
        freeTasks: estimate.freeTasks,
      },
      negative: negative === null ? null : { text: negative.text, sent: negative.sent },
      warnings: plan.warnings.map((warning) => englishText(warning)),
      hardCap: plan.hardCap === null ? null : englishText(plan.hardCap.refusal),
    };
    io.stdout(`${jsonSafe(JSON.stringify(out))}\n`);
    return;
  }
  plan.prompts.forEach((prompt, at) => io.stdout(`${String(at + 1)}. ${terminalSafe(prompt)}\n`));
  io.stdout(
    `${plan.tasks} task(s) from "${terminalSafe(plan.template.name)}" v${plan.template.version}; estimated ${estimateLine(plan)}\n`,
  );
}

/** `generate --template … --dry-run`: it sends nothing, so it needs no key. */
export function isDryRun(command: Command): boolean {
  return command.name === 'generate' && command.template?.dryRun === true;
}

/** Runs `generate --template`; `watch` follows the tasks it submitted. */
export async function generateFromTemplate(
  core: PictorCore,
  command: Generate,
  io: CliIo,
  watch: (records: readonly TaskRecord[]) => Promise<number>,
): Promise<number> {
  const input = inputOf(core, command);
  if (input === null) {
    io.stderr(
      `There is no template ${terminalSafe(quotedOr(command.template.name, 'by the name given', 'named '))} (pictor template ls lists them).\n`,
    );
    return EXIT.usage;
  }
  const runs = core.templateRuns;
  const { mode, seedDrawn, dryRun } = command.template;
  try {
    const plan = runs.plan(input);
    if (mode.kind === 'random' && seedDrawn)
      io.stderr(`Random prompts drawn with --seed ${mode.seed}.\n`);
    if (plan.negative && !plan.negative.sent && plan.negative.why)
      io.stderr(`${said(plan.negative.why)}\n`);
    for (const warning of plan.warnings) io.stderr(`${said(warning)}\n`);
    if (dryRun) {
      printPlan(plan, io, command.common.json);
      if (plan.hardCap) {
        const { refused, refusal } = plan.hardCap;
        const fallback = cliWording(englishText(refusal));
        io.stderr(capRefusalText(refused, fallback, io.program ?? DEV_PROGRAM));
      }
      return EXIT.ok;
    }
    core.engine.start({ resume: false });
    const { records } = await runs.run(input);
    return await watch(records);
  } catch (error) {
    if (error instanceof SpendingCapError) {
      io.stderr(
        capRefusalText(error.refusal, cliWording(error.message), io.program ?? DEV_PROGRAM),
      );
      return EXIT.submitRefused;
    }
    if (!(error instanceof UserFacingError)) throw error;
    io.stderr(`${terminalSafe(cliWording(error.message))}\n`);
    return EXIT.usage;
  }
}
