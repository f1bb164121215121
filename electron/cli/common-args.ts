/** The options every command over a library takes, checked: where it is, and how to report. */
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../core/command-line';
import { defaultDataDir, defaultGalleryDir } from '../core/fs';
import { DEFAULT_TIMEOUT_SECONDS } from './command-help';

export interface CommonOptions {
  readonly dataDir: string;
  readonly galleryDir: string;
  readonly json: boolean;
  readonly verbose: boolean;
  /** Watch timeout in ms; `null` never stops watching. */
  readonly timeoutMs: number | null;
  readonly pollIntervalMs: number;
}

/** The schemas (parseArgs's) of the options {@link common} reads, for a command's own table. */
export const COMMON_OPTION_SCHEMAS = {
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  timeout: { type: 'string' },
  'poll-interval': { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
} as const;

/** The parsed options {@link common} reads. */
export interface CommonValues {
  readonly 'data-dir'?: string;
  readonly 'gallery-dir'?: string;
  readonly json?: boolean;
  readonly verbose?: boolean;
  readonly timeout?: string;
  readonly 'poll-interval'?: string;
}

function seconds(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(`--${name} takes a number of seconds greater than 0.`);
  return value;
}

/** The options every command over a library takes (--data-dir, --gallery-dir, --json…). */
export function common(values: CommonValues, env: NodeJS.ProcessEnv): CommonOptions {
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
