/**
 * Environment overrides the app honours, for end-to-end tests and portable set-ups: where the data
 * and gallery live, and how fast the built-in demo service and polling run. Anything malformed is
 * ignored (the defaults stand) rather than trusted.
 */
import { isAbsolute } from 'node:path';
import type { AppRuntimeOptions } from './app-runtime';

export interface AppEnvironment {
  /** PICTOR_USER_DATA_DIR: the data folder instead of the OS default. */
  readonly userDataDir?: string;
  /** PICTOR_GALLERY_DIR: the default gallery folder instead of Pictures/Pictor. */
  readonly galleryDir?: string;
  /** PICTOR_DEMO_DURATION_MS: how long the built-in demo service takes per task. */
  readonly demoDurationMs?: number;
  /** PICTOR_POLL_INTERVAL_MS: tests only; the service's rule is 3 s. */
  readonly pollIntervalMs?: number;
  /** PICTOR_WATCH_TIMEOUT_MS: tests only; replaces the Settings value (whole minutes). */
  readonly watchTimeoutMs?: number;
}

function folder(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

function milliseconds(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
}

export function readAppEnvironment(env: NodeJS.ProcessEnv): AppEnvironment {
  const userDataDir = folder(env.PICTOR_USER_DATA_DIR);
  const galleryDir = folder(env.PICTOR_GALLERY_DIR);
  const demoDurationMs = milliseconds(env.PICTOR_DEMO_DURATION_MS, 0, 600_000);
  const pollIntervalMs = milliseconds(env.PICTOR_POLL_INTERVAL_MS, 50, 60_000);
  const watchTimeoutMs = milliseconds(env.PICTOR_WATCH_TIMEOUT_MS, 100, 7 * 24 * 3_600_000);
  return {
    ...(userDataDir ? { userDataDir } : {}),
    ...(galleryDir ? { galleryDir } : {}),
    ...(demoDurationMs === undefined ? {} : { demoDurationMs }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    ...(watchTimeoutMs === undefined ? {} : { watchTimeoutMs }),
  };
}

/** The AppRuntime options an environment overrides (both composition roots pass these on). */
export function runtimeOverrides(
  environment: AppEnvironment,
): Pick<AppRuntimeOptions, 'demo' | 'pollIntervalMs' | 'watchTimeoutMs'> {
  const { demoDurationMs, pollIntervalMs, watchTimeoutMs } = environment;
  return {
    ...(demoDurationMs === undefined ? {} : { demo: { durationMs: demoDurationMs } }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    ...(watchTimeoutMs === undefined ? {} : { watchTimeoutMs }),
  };
}
