/** The CLI's commands and options, parsed and checked before anything touches the network or disk. */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SIZE_PATTERN } from '../../shared/service/wire';
import { defaultDataDir, defaultGalleryDir } from '../core/default-paths';
import { UserFacingError } from '../core/errors/user-facing-error';

/** A command line Pictor cannot run, in a sentence that says what to type instead. */
export class UsageError extends UserFacingError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(message, { code: 'bad_input' });
  }
}

export interface CommonOptions {
  readonly dataDir: string;
  readonly galleryDir: string;
  readonly json: boolean;
  readonly verbose: boolean;
  /** Watch timeout in ms; `null` never stops watching. */
  readonly timeoutMs: number | null;
  readonly pollIntervalMs: number;
}

export type Command =
  | { readonly name: 'help' }
  | {
      readonly name: 'generate';
      readonly baseUrl: string;
      readonly prompt: string;
      readonly model?: string;
      readonly size?: string;
      readonly quality?: string;
      readonly count: number;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'resume';
      readonly target: string | 'all';
      /** The service SERVICE_API_KEY is for; tasks on any other origin wait, and say why. */
      readonly baseUrl: string | null;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'track';
      readonly taskId: string;
      readonly baseUrl: string;
      readonly prompt?: string;
      readonly common: CommonOptions;
    }
  | { readonly name: 'list'; readonly common: CommonOptions }
  | { readonly name: 'rebuild'; readonly common: CommonOptions };

export const DEFAULT_TIMEOUT_SECONDS = 900;

const OPTIONS = {
  'base-url': { type: 'string' },
  prompt: { type: 'string' },
  model: { type: 'string' },
  size: { type: 'string' },
  quality: { type: 'string' },
  count: { type: 'string' },
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  timeout: { type: 'string' },
  'poll-interval': { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify.*$/s, '.'));
  }
}

function seconds(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(`--${name} takes a number of seconds greater than 0.`);
  return value;
}

function common(values: Values, env: NodeJS.ProcessEnv): CommonOptions {
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(env);
  const galleryDir = values['gallery-dir']
    ? resolve(values['gallery-dir'])
    : values['data-dir']
      ? resolve(dataDir, 'gallery')
      : defaultGalleryDir(env);
  if (!isAbsolute(galleryDir)) throw new UsageError('--gallery-dir must be a folder path.');
  return {
    dataDir,
    galleryDir,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
    timeoutMs: seconds(values.timeout, 'timeout', DEFAULT_TIMEOUT_SECONDS) * 1_000,
    pollIntervalMs: Math.round(seconds(values['poll-interval'], 'poll-interval', 3) * 1_000),
  };
}

function required(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(message);
  return value;
}

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const { values, positionals } = parse(argv);
  const [name, ...rest] = positionals;
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  const extra = (allowed: number): void => {
    if (rest.length > allowed) throw new UsageError(`Unexpected argument: ${rest[allowed]}`);
  };
  switch (name) {
    case 'generate': {
      extra(0);
      const size = values.size?.trim();
      if (size !== undefined && !SIZE_PATTERN.test(size)) {
        throw new UsageError('--size must look like 1024x1024 (two whole numbers).');
      }
      const count = values.count === undefined ? 1 : Number(values.count);
      if (!Number.isInteger(count) || count < 1 || count > 100)
        throw new UsageError('--count takes a whole number from 1 to 100.');
      return {
        name,
        baseUrl: required(
          values['base-url'],
          'generate needs --base-url URL (the service address).',
        ),
        prompt: required(values.prompt, 'generate needs --prompt TEXT.'),
        ...(values.model ? { model: values.model } : {}),
        ...(size ? { size } : {}),
        ...(values.quality ? { quality: values.quality } : {}),
        count,
        common: common(values, env),
      };
    }
    case 'resume': {
      extra(1);
      const target = values.all ? 'all' : required(rest[0], 'resume needs a task id, or --all.');
      const baseUrl = values['base-url']?.trim() || null;
      return { name, target, baseUrl, common: common(values, env) };
    }
    case 'track':
      extra(1);
      return {
        name,
        taskId: required(rest[0], 'track needs the task id to follow.'),
        baseUrl: required(
          values['base-url'],
          'track needs --base-url URL (the service the task lives on).',
        ),
        ...(values.prompt ? { prompt: values.prompt } : {}),
        common: common(values, env),
      };
    case 'list':
    case 'rebuild':
      extra(0);
      return { name, common: common(values, env) };
    default:
      throw new UsageError(
        `Unknown command "${name}". Commands: generate, resume, track, list, rebuild.`,
      );
  }
}

/** The help text, naming the CLI as the user runs it (`pictor`, or `npm run cli --`). */
export const helpText = (
  program: string,
): string => `Pictor command line: generate images through an image task service and keep them.

Usage: ${program} <command> [options]   (the key is read from SERVICE_API_KEY and is sent
only to the service named with --base-url)

  generate --base-url URL --prompt TEXT [--model M] [--size WxH] [--quality Q] [--count N]
  resume <task-id> | --all --base-url URL   continue polling tasks in the history (never
                                  resubmits); only tasks on that service get the key
  track <task-id> --base-url URL [--prompt TEXT]   follow a task created elsewhere
  list                            print the history
  rebuild                         re-import the gallery folder's sidecars into the history

Options for every command:
  --data-dir DIR      history folder (default: the app's data folder)
  --gallery-dir DIR   gallery folder (default: <data-dir>/gallery with --data-dir, else ~/Pictures/Pictor)
  --timeout SECONDS   stop watching after this long; the id is kept for resume (default ${DEFAULT_TIMEOUT_SECONDS})
  --poll-interval S   seconds between polls (default 3, the service's rule)
  --json              one JSON object per task on stdout
  --verbose           log engine events on stderr

Exit codes: 0 done and every image saved; 1 task failed; 2 usage error; 3 stopped watching
(timeout, or waiting for another account's key); 4 completed but an image could not be saved;
5 the library cannot be used; 6 the service refused the request (nothing submitted); 7 the
request may have reached the service (not sent again); 70 unexpected problem; 130 interrupted.
With several tasks, the highest code.
`;
