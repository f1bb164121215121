/**
 * What generate adds to the request beyond prompt, model, size and quality: the model's own
 * options and seed (param-args.ts), `--dry-run` (the body the service would get and its cURL
 * line, printed: the profile builds them and never sees the key), and `--like REF [--vary]` (a task's request again,
 * with its seed, or a new one).
 */
import { randomInt } from 'node:crypto';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { GenerationRequest } from '../../shared/service/wire';
import { UsageError } from '../core/command-line';
import { profileOf, requestCurl } from '../core/service';
import { commandShellOf } from '../../shared/text/command-words';
import type { Values } from './cli-args';
import type { Command } from './cli-command';
import { requestParamsOf, seedFromText } from './param-args';
import type { ServiceChoice } from './service-args';
import { findTask, type IdHistory } from './task-ids';
import { jsonSafe, terminalSafe } from './terminal-text';

type Generate = Command & { name: 'generate' };

/** The largest seed --vary draws: every service's seed range takes it. */
const MAX_DRAWN_SEED = 2_147_483_647;

/** The options, seed, --dry-run and --like of a generate command line. */
export function requestExtrasOf(
  values: Values,
  service: ServiceChoice,
  model: string | undefined,
  templated: boolean,
): Pick<Generate, 'params' | 'seed' | 'dryRun' | 'like'> {
  const like = values.like?.trim();
  if (values.vary && like === undefined) throw new UsageError('--vary goes with --like TASK.');
  if (like !== undefined && templated) {
    throw new UsageError('--like and --template cannot be used together.');
  }
  // With --template, --seed draws its prompts (template-run-args.ts) and --dry-run prints them;
  // with --like, the task's model and options are repeated (only its seed can be changed).
  const typed = templated ? { ...values, seed: undefined } : values;
  const extras =
    like === undefined ? requestParamsOf(typed, service.provider, model ?? '') : likeSeed(values);
  return {
    ...extras,
    ...(values['dry-run'] && !templated ? { dryRun: true } : {}),
    ...(like === undefined || like === ''
      ? {}
      : { like: { ref: like, vary: values.vary ?? false } }),
  };
}

/** --like's own options: only --seed (and --vary), the rest is the task's. */
function likeSeed(values: Values): { seed?: number } {
  if (values.param || values.negative || values.aspect || values.resolution || values.model) {
    throw new UsageError(
      '--like repeats the task’s model and options: leave out --model, --param, --negative, --aspect and --resolution.',
    );
  }
  return values.seed === undefined ? {} : { seed: seedFromText(values.seed) };
}

/** The request generate sends: the typed one, or the --like task's with the typed changes. */
export function requestOf(command: Generate, history: IdHistory | null): GenerationRequest {
  const { prompt, model, size, quality, params, seed } = command;
  const typed: GenerationRequest = {
    prompt,
    ...(model ? { model } : {}),
    ...(size ? { size } : {}),
    ...(quality ? { quality } : {}),
    ...(params ? { params } : {}),
    ...(seed === undefined ? {} : { seed }),
  };
  if (!command.like || !history) return typed;
  const record = findTask(history, command.like.ref);
  if (!record)
    throw new UsageError('No task in the history has that id (list shows each task’s id).');
  return likeRequest(record, typed, command.like.vary);
}

function likeRequest(
  record: TaskRecord,
  typed: GenerationRequest,
  vary: boolean,
): GenerationRequest {
  const { inputs: _inputs, ...before } = record.request;
  const recorded = record.seed ?? before.seed;
  const seed = typed.seed ?? (vary ? randomInt(MAX_DRAWN_SEED) : recorded);
  return {
    ...before,
    ...(typed.prompt.trim() === '' ? {} : { prompt: typed.prompt }),
    ...(typed.size ? { size: typed.size } : {}),
    ...(typed.quality ? { quality: typed.quality } : {}),
    ...(typed.params || before.params ? { params: { ...before.params, ...typed.params } } : {}),
    ...(seed === undefined ? {} : { seed }),
  };
}

/**
 * `--dry-run`: what would be sent for `request`, as lines (the method, the path, the body), then
 * the cURL line that sends it (Copy as command's own, for this platform's shell, the key's variable
 * where the key goes) when one can.
 */
export function dryRunText(command: Generate, request: GenerationRequest): string {
  const sent = profileOf(command.service.provider).submit(request);
  const curl = requestCurl(command.target, request, commandShellOf(process.platform));
  const body = jsonSafe(JSON.stringify(sent.body ?? null, null, 2));
  const lines = [terminalSafe(`${sent.method} ${sent.target}`), body];
  // What a reader would act on can sit only in the body's JSON, where `\uXXXX` means the same.
  if (curl !== null) lines.push(terminalSafe(jsonSafe(curl)));
  return `${lines.join('\n')}\n`;
}
