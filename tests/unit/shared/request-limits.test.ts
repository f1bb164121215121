/**
 * The request limits are declared once (shared/domain/limits.ts). Every schema reads them, and
 * the sentences that name them (the form's catalogue, the main process's settings errors) must
 * say the same numbers: a change of a limit that leaves a sentence behind fails here.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WATCH_MINUTES, REQUEST_LIMITS, TASKS_PER_SUBMIT } from '../../../shared/domain/limits';
import { settingsSchema, DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { generationRequestSchema } from '../../../shared/service/wire';
import { requests } from '../../../shared/ipc/contract';
import { compose } from '../../../renderer/i18n/en/compose';
import { settings } from '../../../renderer/i18n/en/settings';
import {
  checkCount,
  checkModel,
  checkPrompt,
  checkQuality,
} from '../../../renderer/lib/request-validation';
import { validateGenerationRequest } from '../../../electron/demo-service/request-validation';

const text = (n: number) => 'x'.repeat(n);
/** A number as the English catalogue writes it (32,000). */
const written = (n: number) => n.toLocaleString('en-US');

describe('request limits, declared once', () => {
  it('the request schema, the form and the demo service accept exactly up to each limit', () => {
    for (const [field, max] of Object.entries(REQUEST_LIMITS)) {
      const base = { prompt: 'a lighthouse' };
      expect(generationRequestSchema().safeParse({ ...base, [field]: text(max) }).success).toBe(
        true,
      );
      expect(generationRequestSchema().safeParse({ ...base, [field]: text(max + 1) }).success).toBe(
        false,
      );
    }
    expect(checkPrompt(text(REQUEST_LIMITS.prompt)).ok).toBe(true);
    expect(checkPrompt(text(REQUEST_LIMITS.prompt + 1)).ok).toBe(false);
    expect(checkModel(text(REQUEST_LIMITS.model)).ok).toBe(true);
    expect(checkModel(text(REQUEST_LIMITS.model + 1)).ok).toBe(false);
    expect(checkQuality(text(REQUEST_LIMITS.quality)).ok).toBe(true);
    expect(checkQuality(text(REQUEST_LIMITS.quality + 1)).ok).toBe(false);
    expect(validateGenerationRequest({ prompt: text(REQUEST_LIMITS.prompt) }, 4096).ok).toBe(true);
    expect(validateGenerationRequest({ prompt: text(REQUEST_LIMITS.prompt + 1) }, 4096).ok).toBe(
      false,
    );
  });

  it('the count range is the same in the form, the settings and the IPC call', () => {
    const { min, max } = TASKS_PER_SUBMIT;
    const target = { provider: 'pictor', endpoint: 'demo:' };
    const submit = (count: number) =>
      requests['tasks:submit'].input.safeParse({ request: { prompt: 'a' }, target, count }).success;
    const defaults = (defaultCount: number) =>
      settingsSchema().safeParse({ ...DEFAULT_SETTINGS, defaultCount }).success;
    for (const accepts of [submit, defaults, (n: number) => checkCount(String(n)).ok]) {
      expect([min - 1, min, max, max + 1].map(accepts)).toEqual([false, true, true, false]);
    }
  });

  it('the sentences that name a limit say its number', () => {
    expect(compose['compose.prompt.error.tooLong']).toContain(written(REQUEST_LIMITS.prompt));
    expect(compose['compose.model.error.tooLong']).toContain(written(REQUEST_LIMITS.model));
    expect(compose['compose.quality.error.tooLong']).toContain(written(REQUEST_LIMITS.quality));
    expect(compose['compose.count.error']).toContain(
      `from ${TASKS_PER_SUBMIT.min} to ${TASKS_PER_SUBMIT.max}`,
    );
    expect(settings['settings.watch.error']).toContain(`to ${MAX_WATCH_MINUTES}`);
  });
});
