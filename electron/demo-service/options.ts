import { SNIFF_BYTES, sniffImage } from '../core/images';
import type {
  DemoAccount,
  DemoCost,
  DemoDialect,
  DemoDuration,
  DemoInlineResults,
  DemoRecall,
  DemoServiceOptions,
  DemoTimers,
} from './types';
import { DEMO_DIALECTS, DEMO_INLINE_RESULTS } from './types';

/** The real timers (close() clears the waits left). */
const REAL_TIMERS: DemoTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A demo service option that cannot be used; the message names the option, never a key. */
export class DemoOptionsError extends Error {
  override readonly name = 'DemoOptionsError';
}

/** {@link DemoServiceOptions} with every default filled in and every value checked. */
export interface ResolvedOptions {
  host: string;
  port: number;
  accounts: DemoAccount[];
  durationMs: { min: number; max: number };
  failureRate: number;
  imagesPerTask: number;
  imageUrlTtlMs: number | null;
  redirectImages: boolean;
  inlineResults: DemoInlineResults | null;
  maxBodyBytes: number;
  maxHeldBytes: number;
  maxImageSide: number;
  control: boolean;
  seed: number;
  now: () => number;
  timers: DemoTimers;
  images: DemoServiceOptions['images'];
  imageFiles: readonly Uint8Array[];
  imagePacing: DemoServiceOptions['imagePacing'];
  dialect: DemoDialect;
  rateLimit: number;
  unknownStatusPolls: number;
  /** An origin (`scheme://host[:port]`) or null. */
  foreignOrigin: string | null;
  maxActiveTasks: number;
  cost: DemoCost | null;
  recall: DemoRecall | undefined;
}

const DEFAULT_DURATION = { min: 3000, max: 6000 };
/** Request bodies being read, and uploads kept: each at most this at once (types.ts). */
const DEFAULT_HELD_BYTES = 256 * 1024 * 1024;
const MAX_IMAGES_PER_TASK = 10;
/** sharp/librsvg can render far larger, but a demo image over this costs seconds and ~100 MB. */
const HARD_MAX_IMAGE_SIDE = 8192;

function check(condition: boolean, message: string): void {
  if (!condition) throw new DemoOptionsError(message);
}

function isWholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Checks a duration and returns it as a range. */
export function resolveDuration(duration: DemoDuration | undefined): { min: number; max: number } {
  if (duration === undefined) return { ...DEFAULT_DURATION };
  const range = typeof duration === 'number' ? { min: duration, max: duration } : duration;
  const valid =
    typeof range === 'object' &&
    isWholeNumber(range.min, 0, 86_400_000) &&
    isWholeNumber(range.max, 0, 86_400_000) &&
    range.min <= range.max;
  check(
    valid,
    'The task duration must be a whole number of milliseconds, or a range whose min is not above its max.',
  );
  return { min: range.min, max: range.max };
}

/** Checks a failure rate (0..1). */
export function checkFailureRate(rate: number): number {
  check(
    typeof rate === 'number' && rate >= 0 && rate <= 1,
    'The failure rate must be a number from 0 to 1.',
  );
  return rate;
}

/** Checks a count of the dialect switches (rate limit, unknown status polls). */
export function checkSwitchCount(value: number, what: string): number {
  check(isWholeNumber(value, 0, 1_000_000), `${what} must be a whole number from 0 to 1000000.`);
  return value;
}

/** The origin of an http(s) URL, or null for none. */
function resolveOrigin(url: string | null | undefined): string | null {
  if (url === undefined || url === null) return null;
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new DemoOptionsError('The foreign origin must be an http or https URL.');
  }
  return parsed.origin;
}

/** Checks a credit balance (a whole number ≥ 0, or undefined for unlimited). */
export function checkCredits(credits: number | undefined): number | undefined {
  check(
    credits === undefined || isWholeNumber(credits, 0, Number.MAX_SAFE_INTEGER),
    'Credits must be a whole number of at least 0.',
  );
  return credits;
}

function resolveAccounts(accounts: DemoAccount[] | undefined): DemoAccount[] {
  const list = accounts ?? [{ account: 'demo', key: 'demo' }];
  check(Array.isArray(list) && list.length > 0, 'The demo service needs at least one account.');
  const keys = new Set<string>();
  for (const entry of list) {
    check(
      typeof entry.account === 'string' && entry.account.length > 0,
      'Every account needs a non-empty name.',
    );
    check(
      typeof entry.key === 'string' && /^\S+$/.test(entry.key),
      `The key of account "${entry.account}" must be non-empty and without spaces.`,
    );
    check(
      !keys.has(entry.key),
      `Two accounts were given the same key (one of them is "${entry.account}").`,
    );
    keys.add(entry.key);
    checkCredits(entry.credits);
  }
  return list.map((entry) => ({ ...entry }));
}

/** Fills in defaults and checks every option; throws {@link DemoOptionsError}. */
export function resolveOptions(options: DemoServiceOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    accounts: resolveAccounts(options.accounts),
    durationMs: resolveDuration(options.durationMs),
    failureRate: checkFailureRate(options.failureRate ?? 0),
    imagesPerTask: options.imagesPerTask ?? 1,
    imageUrlTtlMs: options.imageUrlTtlMs ?? null,
    redirectImages: options.redirectImages ?? false,
    inlineResults: options.inlineResults ?? null,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    maxHeldBytes: options.maxHeldBytes ?? DEFAULT_HELD_BYTES,
    maxImageSide: options.maxImageSide ?? 2048,
    control: options.control ?? false,
    seed: options.seed ?? 1,
    now: options.now ?? Date.now,
    timers: options.timers ?? REAL_TIMERS,
    images: options.images,
    imageFiles: options.imageFiles ?? [],
    imagePacing: options.imagePacing,
    dialect: options.dialect ?? 'pictor',
    rateLimit: checkSwitchCount(options.rateLimit ?? 0, 'The rate limit'),
    unknownStatusPolls: checkSwitchCount(options.unknownStatusPolls ?? 0, 'Unknown status polls'),
    foreignOrigin: resolveOrigin(options.foreignOrigin),
    maxActiveTasks: options.maxActiveTasks ?? 24,
    cost: resolveCost(options.cost),
    recall: options.recall,
  };
  checkScalars(resolved);
  check(
    resolved.inlineResults === null || DEMO_INLINE_RESULTS.includes(resolved.inlineResults),
    `Inline results must be one of: ${DEMO_INLINE_RESULTS.join(', ')}.`,
  );
  check(
    DEMO_DIALECTS.includes(resolved.dialect),
    `The dialect must be one of: ${DEMO_DIALECTS.join(', ')}.`,
  );
  check(
    isWholeNumber(resolved.maxActiveTasks, 1, 1_000_000),
    'The active task limit must be a whole number from 1 to 1000000.',
  );
  return resolved;
}

const COST_PLACES: readonly DemoCost['where'][] = ['submit', 'poll', 'late', 'header'];

/** Checks how costs are reported (the values themselves are sent as given, hostile or not). */
function resolveCost(cost: DemoCost | null | undefined): DemoCost | null {
  if (cost === undefined || cost === null) return null;
  check(
    COST_PLACES.includes(cost.where),
    `The cost's place must be one of: ${COST_PLACES.join(', ')}.`,
  );
  check(
    cost.where !== 'header' ||
      (typeof cost.header === 'string' && /^[\x20-\x7e]*$/.test(cost.header)),
    'A cost header must be printable ASCII text.',
  );
  return { ...cost };
}

function checkScalars(resolved: ResolvedOptions): void {
  check(
    typeof resolved.host === 'string' && resolved.host.length > 0,
    'The host must be a non-empty string.',
  );
  check(
    isWholeNumber(resolved.port, 0, 65_535),
    'The port must be a whole number from 0 to 65535.',
  );
  check(
    isWholeNumber(resolved.imagesPerTask, 1, MAX_IMAGES_PER_TASK),
    `Images per task must be a whole number from 1 to ${MAX_IMAGES_PER_TASK}.`,
  );
  check(
    resolved.imageUrlTtlMs === null ||
      isWholeNumber(resolved.imageUrlTtlMs, 0, Number.MAX_SAFE_INTEGER),
    'The image URL lifetime must be a whole number of milliseconds, or null for never.',
  );
  check(
    isWholeNumber(resolved.maxBodyBytes, 1, 64 * 1024 * 1024),
    'The body size limit must be a whole number of bytes from 1 to 64 MiB.',
  );
  check(
    isWholeNumber(resolved.maxHeldBytes, 1, Number.MAX_SAFE_INTEGER),
    'The held-bytes limit must be a whole number of bytes of at least 1.',
  );
  check(
    isWholeNumber(resolved.maxImageSide, 1, HARD_MAX_IMAGE_SIDE),
    `The image side cap must be a whole number from 1 to ${HARD_MAX_IMAGE_SIDE}.`,
  );
  check(
    resolved.imageFiles.length <= MAX_IMAGES_PER_TASK &&
      resolved.imageFiles.every((file) => sniffImage(file.subarray(0, SNIFF_BYTES)) !== null),
    `The image files must be at most ${MAX_IMAGES_PER_TASK} PNG, JPEG or WebP images.`,
  );
  check(Number.isFinite(resolved.seed), 'The seed must be a finite number.');
  check(typeof resolved.now === 'function', 'now must be a function returning milliseconds.');
}
