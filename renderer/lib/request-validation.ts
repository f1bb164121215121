/**
 * Checks of the generation parameters as the user types them. Each check answers with the
 * catalogue key of the reason, so the form can show why a value is refused before submitting.
 */
import type { MessageKey } from '../i18n';
import type { GenerationRequest } from '../../shared/service/wire';
import { SIZE_PATTERN } from '../../shared/service/wire';
import { MAX_WATCH_MINUTES, REQUEST_LIMITS, TASKS_PER_SUBMIT } from '../../shared/domain/limits';

/** The size presets offered first; any other `<width>x<height>` is allowed. */
export const SIZE_PRESETS = ['1024x1024', '1536x1024', '1024x1536'] as const;
/** The quality levels offered first; the service decides what it accepts. */
export const QUALITY_PRESETS = ['low', 'medium', 'high', 'auto'] as const;

/** A value with its canonical form, or the reason it is refused. */
export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: MessageKey };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const refuse = <T>(reason: MessageKey): Checked<T> => ({ ok: false, reason });

/**
 * A custom size as typed: `1536x1024`, also `1536 x 1024`, `1536X1024` or `1536×1024`.
 * Canonical form `<w>x<h>`.
 */
export function checkSize(text: string): Checked<string> {
  const compact = text.trim().replace(/\s+/g, '').replace(/[X×]/g, 'x');
  if (compact === '') return refuse('compose.size.error.empty');
  const parts = compact.split('x');
  if (parts.length !== 2 || parts.some((part) => !/^\d+$/.test(part))) {
    return refuse('compose.size.error.format');
  }
  if (parts.some((part) => Number(part) === 0)) return refuse('compose.size.error.zero');
  const canonical = parts.map((part) => String(Number(part))).join('x');
  if (!SIZE_PATTERN.test(canonical)) return refuse('compose.size.error.tooLarge');
  return ok(canonical);
}

/** Text that must not be empty nor longer than `max` characters, trimmed. */
function checkText(
  text: string,
  max: number,
  refusals: { empty: MessageKey; tooLong: MessageKey },
): Checked<string> {
  const value = text.trim();
  if (value === '') return refuse(refusals.empty);
  if (value.length > max) return refuse(refusals.tooLong);
  return ok(value);
}

/** A whole number from `min` to `max` as typed (digits alone, trimmed), else `refusal`. */
function checkWhole(text: string, min: number, max: number, refusal: MessageKey): Checked<number> {
  const value = text.trim();
  if (!/^\d+$/.test(value)) return refuse(refusal);
  const whole = Number(value);
  return whole >= min && whole <= max ? ok(whole) : refuse(refusal);
}

/** A custom quality: any non-empty word up to 100 characters. */
export function checkQuality(text: string): Checked<string> {
  return checkText(text, REQUEST_LIMITS.quality, {
    empty: 'compose.quality.error.empty',
    tooLong: 'compose.quality.error.tooLong',
  });
}

/** The number of tasks to create at once, as typed. */
export function checkCount(text: string): Checked<number> {
  const { min, max } = TASKS_PER_SUBMIT;
  return checkWhole(text, min, max, 'compose.count.error');
}

/** A model id; empty means "the service's default" (the field is left out of the request). */
export function checkModel(text: string): Checked<string> {
  const value = text.trim();
  return value.length > REQUEST_LIMITS.model ? refuse('compose.model.error.tooLong') : ok(value);
}

export function checkPrompt(text: string): Checked<string> {
  return checkText(text, REQUEST_LIMITS.prompt, {
    empty: 'compose.prompt.error.empty',
    tooLong: 'compose.prompt.error.tooLong',
  });
}

/** The watch timeout in whole minutes, 0 = never stop watching. */
export function checkWatchMinutes(text: string): Checked<number> {
  return checkWhole(text, 0, MAX_WATCH_MINUTES, 'settings.watch.error');
}

/** Builds the request, leaving out the optional fields that are empty. */
export function buildRequest(fields: {
  prompt: string;
  model: string;
  size: string;
  quality: string;
}): GenerationRequest {
  return {
    prompt: fields.prompt,
    ...(fields.model ? { model: fields.model } : {}),
    ...(fields.size ? { size: fields.size } : {}),
    ...(fields.quality ? { quality: fields.quality } : {}),
  };
}
