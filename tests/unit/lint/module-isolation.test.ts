/**
 * The unit files that share their modules within a thread (vitest.config.ts) are told apart from
 * the ones that need their own by their text (tests/support/module-isolation.ts): each way of
 * changing what a later file would see is recognised, and reads and restores are left alone.
 */
import { describe, expect, it } from 'vitest';
import { needsOwnModules, runsMainSide } from '../../support/module-isolation';

describe('a file that needs modules of its own', () => {
  it.each([
    "vi.mock('electron', () => ({}));",
    'vi.doMock("./x", factory);',
    'vi.resetModules();',
    "vi.stubGlobal('fetch', fake);",
    "vi.stubEnv('PICTOR_BUILD_DIR', dir);",
    'vi.useFakeTimers();',
    "process.env.PICTOR_X = '1';",
    "process.env['PICTOR_TEST_ANSWER_CRASHED'] = file;",
    'delete process.env.PICTOR_X;',
    'globalThis.fetch = fake;',
    "Object.defineProperty(globalThis, 'navigator', { value: {} });",
    ' * @own-modules: it counts the process-wide read budget.',
  ])('is recognised by %s', (text) => {
    expect(needsOwnModules(text)).toBe(true);
  });

  it.each([
    'const dir = process.env.PICTOR_BUILD_DIR;',
    "if (process.env.CI === 'true') {}",
    'vi.spyOn(console, "error");',
    'vi.fn();',
    'globalThis.fetch(url);',
    'vi.unstubAllEnvs();',
  ])('is not one for %s', (text) => {
    expect(needsOwnModules(text)).toBe(false);
  });
});

describe('a renderer file over the real main side', () => {
  it.each([
    'await startWiredApp({ prepare });',
    'const main = await startWiredApi();',
    'const fileMain = sharedWiredMain();',
    'const renderWired = wiredGallery();',
  ])('is recognised by %s', (text) => {
    expect(runsMainSide(text)).toBe(true);
  });

  it('is not one that renders over the fake', () => {
    expect(runsMainSide('await startApp({ prepare: (fake) => fake.seedTasks(3) });')).toBe(false);
  });
});
