/**
 * `pictor generate --template NAME`: the command line of a template run. `--var NAME=VALUE`
 * (repeated) fills the template's variables, `--expand combinatorial` (the default) or
 * `--expand random:N` (1 to 100, `--seed S` to draw the same prompts again; a new seed is drawn
 * and said otherwise), `--dry-run` prints the prompts and the estimate and sends nothing. The
 * prompt given as usual fills `{{prompt}}`.
 */
import { TASKS_PER_ENGINE_SUBMIT, isWholeNumberIn } from '../../shared/domain/limits';
import { MAX_TEMPLATE_NAME_CHARS } from '../../shared/domain/prompt-template';
import {
  MAX_TEMPLATE_RUN_VALUES,
  MAX_TEMPLATE_VALUE_CHARS,
} from '../../shared/domain/task-template';
import { newTemplateSeed, type ExpansionMode } from '../../shared/domain/template-expand';
import { isVariableName } from '../../shared/domain/template-language';
import { UsageError } from '../core/command-line';

/** What `generate --template` asks for. */
export interface TemplateRunChoice {
  readonly name: string;
  readonly values: Readonly<Record<string, string>>;
  readonly mode: ExpansionMode;
  /** Whether the seed was drawn here (said on stderr, so the same prompts can be drawn again). */
  readonly seedDrawn: boolean;
  readonly dryRun: boolean;
}

interface RunValues {
  readonly template?: string;
  readonly var?: string[];
  readonly expand?: string;
  readonly seed?: string;
  readonly 'dry-run'?: boolean;
}

const MAX_SEED = 0xffff_ffff;

function variables(raw: readonly string[]): Record<string, string> {
  if (raw.length > MAX_TEMPLATE_RUN_VALUES) {
    throw new UsageError(`--var can be given at most ${MAX_TEMPLATE_RUN_VALUES} times.`);
  }
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of raw) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    if (at < 0 || !isVariableName(name)) {
      throw new UsageError(
        '--var takes NAME=VALUE, NAME being a variable of the template (letters, digits, "_" and "-", starting with a letter or "_").',
      );
    }
    const value = pair.slice(at + 1);
    if (value.length > MAX_TEMPLATE_VALUE_CHARS) {
      throw new UsageError(
        `--var ${name}: a value can have at most ${MAX_TEMPLATE_VALUE_CHARS} characters.`,
      );
    }
    values[name] = value;
  }
  return { ...values };
}

function mode(expand: string | undefined, seed: string | undefined): ExpansionMode {
  const text = expand?.trim() ?? 'combinatorial';
  if (text === 'combinatorial') {
    if (seed !== undefined) throw new UsageError('--seed goes with --expand random:N only.');
    return { kind: 'combinatorial' };
  }
  const random = /^random:(\d{1,3})$/.exec(text);
  const count = random ? Number(random[1]) : NaN;
  if (!isWholeNumberIn(TASKS_PER_ENGINE_SUBMIT, count)) {
    throw new UsageError(
      `--expand takes combinatorial or random:N, N from 1 to ${TASKS_PER_ENGINE_SUBMIT.max}.`,
    );
  }
  const drawn = seed === undefined ? newTemplateSeed() : Number(seed);
  if (seed !== undefined && !(/^\d{1,10}$/.test(seed) && drawn <= MAX_SEED)) {
    throw new UsageError(`--seed takes a whole number from 0 to ${MAX_SEED}.`);
  }
  return { kind: 'random', count, seed: drawn };
}

/** The template run the options ask for, or null without --template. */
export function templateRunOf(values: RunValues): TemplateRunChoice | null {
  const name = values.template?.trim();
  if (name === undefined) {
    // Without a template, --seed is the model's seed and --dry-run prints the body (param-args.ts).
    if (values.var || values.expand) {
      throw new UsageError('--var and --expand go with --template NAME.');
    }
    return null;
  }
  if (name === '' || [...name].length > MAX_TEMPLATE_NAME_CHARS) {
    throw new UsageError(
      `--template takes a template's name (at most ${MAX_TEMPLATE_NAME_CHARS} characters).`,
    );
  }
  return {
    name,
    values: variables(values.var ?? []),
    mode: mode(values.expand, values.seed),
    seedDrawn: values.expand?.startsWith('random') === true && values.seed === undefined,
    dryRun: values['dry-run'] ?? false,
  };
}
