/**
 * The renderer's setup (setup.ts) undoes after every test what a test faked or stubbed with
 * vitest, and puts the page's language back to English: the files of `renderer` and
 * `renderer-wired` share their thread's globals and modules, and a file that fakes the timers or
 * stubs a global within its tests shares it only because of this (tests/support/
 * module-isolation.ts, rendererNeedsOwnModules). The tests run in order: the second finds nothing
 * of what the first left.
 */
import { describe, expect, it, vi } from 'vitest';
import { activeLocale, applyLocale } from '../../../renderer/i18n';

const PROBE = 'pictorSetupUndoProbe';

describe("the renderer's setup after a test", () => {
  it('(a test fakes the timers, stubs a global and an environment variable, switches the language, and undoes none)', async () => {
    await applyLocale('de');
    expect(activeLocale().tag).toBe('de');
    vi.useFakeTimers();
    vi.stubGlobal(PROBE, 'stubbed');
    vi.stubEnv('PICTOR_SETUP_UNDO_PROBE', 'stubbed');
    expect(vi.isFakeTimers()).toBe(true);
  });

  it('leaves the next test real timers, neither the global nor the variable, and English', () => {
    expect(activeLocale().tag).toBe('en');
    expect(vi.isFakeTimers()).toBe(false);
    expect(PROBE in globalThis).toBe(false);
    expect(process.env['PICTOR_SETUP_UNDO_PROBE']).toBeUndefined();
  });
});
