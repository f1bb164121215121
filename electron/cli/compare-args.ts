/**
 * `pictor compare`'s command line: one prompt (or up to 10, --prompt repeated) on 2 to 6 targets
 * (--target PROVIDER[:MODEL] repeated; the same twice is allowed), the parameters every target
 * is asked for (--size, --quality, --count), each provider's address (--base-url
 * PROVIDER=ORIGIN, repeated); and `pictor compare show GROUP`.
 */
import { COMPARE_PROMPTS, COMPARE_TARGETS } from '../../shared/domain/compare';
import {
  DEFAULT_PROVIDER,
  PROVIDERS,
  PROVIDER_IDS,
  type ProviderId,
} from '../../shared/domain/providers';
import { demoEndpointOf, demoProviderOf } from '../../shared/domain/submit-target';
import { SIZE_PATTERN } from '../../shared/service/wire';
import { UsageError, parseCommandLine } from '../core/command-line';
import type { CompareInput, CompareTargetInput } from '../core/compare';
import { COMMON_OPTION_SCHEMAS, common, type CommonOptions } from './common-args';
import { compareOptionsFromText } from './param-args';
import { DEMO_OPTION, isDemoOption } from './demo-choice';
import { compareIdText } from './task-ids';

export type CompareCommand =
  | {
      readonly name: 'compare';
      readonly prompts: readonly string[];
      readonly targets: readonly CompareTargetInput[];
      readonly baseUrls: ReadonlyMap<ProviderId, string>;
      /**
       * The dialects of its `demo` / `demo:DIALECT` targets, each once: the command runs Pictor's
       * built-in demo service speaking each (built-in-demo.ts). Empty: it runs none.
       */
      readonly demoDialects: readonly ProviderId[];
      /** --param and --seed, typed for the first target's model (param-args.ts). */
      readonly options?: CompareInput['options'];
      readonly common: CommonOptions;
    }
  | GroupCommand<'compare-show'>
  | (GroupCommand<'compare-cancel'> & {
      /** --base-url PROVIDER=ORIGIN: where each provider's key may go to stop its tasks. */
      readonly baseUrls: ReadonlyMap<ProviderId, string>;
    });

/** `compare show GROUP`, `compare cancel GROUP`. */
interface GroupCommand<N extends string> {
  readonly name: N;
  /** The group's id as typed: the whole UUID or its start (task-ids.ts finds it). */
  readonly group: string;
  readonly common: CommonOptions;
}

/** The options of compare, with their schemas. */
export const COMPARE_OPTIONS = {
  prompt: { type: 'string', multiple: true },
  target: { type: 'string', multiple: true },
  size: { type: 'string' },
  quality: { type: 'string' },
  count: { type: 'string' },
  'base-url': { type: 'string', multiple: true },
  param: { type: 'string', multiple: true },
  seed: { type: 'string' },
  ...COMMON_OPTION_SCHEMAS,
} as const;

const PROVIDER_LIST = PROVIDER_IDS.join(', ');
/** The dialects `demo:DIALECT` names: every provider's but today's contract's (plain `demo`). */
const DEMO_DIALECTS = PROVIDER_IDS.filter((id) => id !== DEFAULT_PROVIDER);
/** What --target names: a provider, or the built-in demo. */
const TARGET_LIST = `${PROVIDER_LIST}, or ${DEMO_OPTION} (Pictor's built-in demo service; ${DEMO_DIALECTS.map((id) => `${DEMO_OPTION}:${id}`).join(', ')} for it speaking that provider's dialect)`;

function providerNamed(text: string, option: string, choices = PROVIDER_LIST): ProviderId {
  const id = text.trim().toLowerCase();
  if ((PROVIDER_IDS as readonly string[]).includes(id)) return id as ProviderId;
  throw new UsageError(`${option} names a provider: one of ${choices}.`);
}

/**
 * `demo`: Pictor's built-in demo service speaking today's contract (at `demo:`); `demo:DIALECT`:
 * the demo speaking that provider's dialect (at `demo:fal`, …; `demo:pictor` is plain `demo`).
 * The command runs each itself. Undefined: `text` names no demo.
 */
function demoTargetOf(text: string): { provider: ProviderId; baseUrl: string } | undefined {
  if (isDemoOption(text))
    return { provider: DEFAULT_PROVIDER, baseUrl: demoEndpointOf(DEFAULT_PROVIDER) };
  const at = text.indexOf(':');
  if (at < 0 || !isDemoOption(text.slice(0, at))) return undefined;
  const dialect = text
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (!(PROVIDER_IDS as readonly string[]).includes(dialect))
    throw new UsageError(
      `--target ${DEMO_OPTION}:DIALECT names a dialect of the built-in demo: one of ${DEMO_DIALECTS.join(', ')}.`,
    );
  const provider = dialect as ProviderId;
  return { provider, baseUrl: demoEndpointOf(provider) };
}

/**
 * PROVIDER[:MODEL]; a model may hold ':' itself (Replicate's owner/name:version); or the built-in
 * demo ({@link demoTargetOf}).
 */
function targetOf(text: string): { provider: ProviderId; model?: string; baseUrl?: string } {
  const demo = demoTargetOf(text);
  if (demo !== undefined) return demo;
  const at = text.indexOf(':');
  const provider = providerNamed(at < 0 ? text : text.slice(0, at), '--target', TARGET_LIST);
  const model = at < 0 ? '' : text.slice(at + 1).trim();
  if (at >= 0 && model === '') throw new UsageError('--target PROVIDER:MODEL needs the model.');
  return model === '' ? { provider } : { provider, model };
}

function baseUrlsOf(values: readonly string[]): Map<ProviderId, string> {
  const urls = new Map<ProviderId, string>();
  for (const value of values) {
    const at = value.indexOf('=');
    if (at < 1)
      throw new UsageError('--base-url takes PROVIDER=ORIGIN, as in fal=https://fal.run.');
    const provider = providerNamed(value.slice(0, at), '--base-url');
    if (urls.has(provider)) throw new UsageError(`--base-url names ${provider} twice.`);
    urls.set(provider, value.slice(at + 1).trim());
  }
  return urls;
}

function countOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 10)
    throw new UsageError(
      '--count takes a whole number from 1 to 10 (tasks per prompt and target).',
    );
  return count;
}

/** `compare …` after the word `compare`. */
export function parseCompare(argv: readonly string[], env: NodeJS.ProcessEnv): CompareCommand {
  const { values, positionals } = parseCommandLine(argv, COMPARE_OPTIONS, true);
  const verb = positionals[0];
  if (verb === 'show' || verb === 'cancel') {
    if (positionals.length !== 2)
      throw new UsageError(`compare ${verb} takes one compare group id.`);
    const group = compareIdText(positionals[1] ?? '', `compare ${verb}`);
    const found = { group, common: common(values, env) };
    if (verb === 'show') return { name: 'compare-show', ...found };
    return { name: 'compare-cancel', ...found, baseUrls: baseUrlsOf(values['base-url'] ?? []) };
  }
  if (positionals.length > 0)
    throw new UsageError('compare takes its prompt with --prompt (quoted for the shell).');
  return parseRun(values, env);
}

type Values = ReturnType<typeof parseCommandLine<typeof COMPARE_OPTIONS>>['values'];

/** The targets `values` name, each with its size, quality, count and address (when it has one). */
function targetsOf(values: Values, baseUrls: ReadonlyMap<ProviderId, string>) {
  const size = values.size?.trim();
  if (size !== undefined && !SIZE_PATTERN.test(size))
    throw new UsageError('--size must look like 1024x1024 (two whole numbers).');
  const count = countOf(values.count);
  const targets = (values.target ?? []).map((text) => ({
    ...targetOf(text),
    ...(size ? { size } : {}),
    ...(values.quality?.trim() ? { quality: values.quality.trim() } : {}),
    ...(count === undefined ? {} : { count }),
  }));
  for (const target of targets) {
    const baseUrl = target.baseUrl ?? baseUrls.get(target.provider);
    if (baseUrl === undefined && !PROVIDERS[target.provider].defaultBaseUrl)
      throw new UsageError(
        `${target.provider} has no address of its own: give --base-url ${target.provider}=ORIGIN.`,
      );
  }
  return targets.map((target): CompareTargetInput => {
    const baseUrl = target.baseUrl ?? baseUrls.get(target.provider);
    return baseUrl === undefined ? target : { ...target, baseUrl };
  });
}

/**
 * What a compare's options are typed against, read before they are (the command's `prepare`):
 * its targets and each provider's --base-url, when the line is a compare that sets --param or
 * --seed; null for any other line (a line that does not read is left to {@link parseCompare}).
 */
export function compareTargetsToPrepare(argv: readonly string[]): {
  readonly targets: readonly CompareTargetInput[];
  readonly baseUrls: ReadonlyMap<ProviderId, string>;
} | null {
  try {
    const { values, positionals } = parseCommandLine(argv, COMPARE_OPTIONS, true);
    if (positionals.length > 0) return null;
    if (values.param === undefined && values.seed === undefined) return null;
    const baseUrls = baseUrlsOf(values['base-url'] ?? []);
    return { targets: targetsOf(values, baseUrls), baseUrls };
  } catch (error) {
    if (error instanceof UsageError) return null;
    throw error;
  }
}

function parseRun(values: Values, env: NodeJS.ProcessEnv): CompareCommand {
  const prompts = (values.prompt ?? []).map((prompt) => prompt.trim());
  if (prompts.length < COMPARE_PROMPTS.min || prompts.length > COMPARE_PROMPTS.max)
    throw new UsageError(
      `compare takes ${COMPARE_PROMPTS.min} to ${COMPARE_PROMPTS.max} --prompt; there were ${prompts.length}.`,
    );
  if (prompts.some((prompt) => prompt === '')) throw new UsageError('A --prompt is empty.');
  const named = values.target ?? [];
  if (named.length < COMPARE_TARGETS.min || named.length > COMPARE_TARGETS.max)
    throw new UsageError(
      `compare takes ${COMPARE_TARGETS.min} to ${COMPARE_TARGETS.max} --target; there were ${named.length}.`,
    );
  const baseUrls = baseUrlsOf(values['base-url'] ?? []);
  const withUrls = targetsOf(values, baseUrls);
  const demoDialects = [
    ...new Set(withUrls.flatMap((target) => demoProviderOf(target.baseUrl ?? '') ?? [])),
  ];
  const options = withUrls[0] ? compareOptionsFromText(values, withUrls[0]) : undefined;
  return {
    name: 'compare',
    prompts,
    targets: withUrls,
    baseUrls,
    demoDialects,
    ...(options ? { options } : {}),
    common: common(values, env),
  };
}
