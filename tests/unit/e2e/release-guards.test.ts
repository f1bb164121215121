/**
 * The release job's guards: a tag that is not package.json's version, a Mac signed but not
 * notarised and a private repository's test feed are refused with a sentence before anything is
 * built; the update check runs only where it can prove something (and so the previous tag is
 * built only then, for the runner's CPU alone); every wait of it ends, on the manual clock.
 */
import { describe, expect, it } from 'vitest';
import {
  WaitTimeout,
  notarisationProblem,
  pollUntil,
  previousDistArgs,
  privateFeedProblem,
  tagVersionProblem,
  updateCheckPlan,
  within,
} from '../../e2e/packaged/release-guards';
import { ManualClock } from '../../fakes/manual-clock';

describe('the tag and the version', () => {
  it('accepts v + package.json’s version', () => {
    expect(tagVersionProblem('v1.4.0', '1.4.0')).toBeNull();
    expect(tagVersionProblem('v2.0.0-rc.1', '2.0.0-rc.1')).toBeNull();
  });

  it.each([
    ['v1.4.0', '1.3.2'],
    ['v1.4.0', '1.4.0-rc.1'],
    ['1.4.0', '1.4.0'],
    ['v1.4', '1.4.0'],
    ['main', '1.4.0'],
  ])('refuses the tag %s on version %s with a sentence that says what to do', (tag, version) => {
    const problem = tagVersionProblem(tag, version);
    expect(problem).toContain(tag);
    expect(problem).toContain(version);
    expect(problem).toMatch(/bump the version/);
  });
});

describe('signing without notarising', () => {
  it('refuses a signed Mac that is not notarised, before the build', () => {
    const problem = notarisationProblem('darwin', { signed: true, notarised: false });
    expect(problem).toMatch(/^This run signs the Mac app .* cannot notarise it/);
    expect(problem).toContain('APPLE_API_KEY_P8');
  });

  it('lets an unsigned Mac (ad hoc, said so by the build), a notarised one and other OSes go', () => {
    expect(notarisationProblem('darwin', { signed: false, notarised: false })).toBeNull();
    expect(notarisationProblem('darwin', { signed: true, notarised: true })).toBeNull();
    expect(notarisationProblem('win32', { signed: true, notarised: false })).toBeNull();
    expect(notarisationProblem('linux', { signed: true, notarised: false })).toBeNull();
  });
});

describe('a private repository', () => {
  it('is refused with the sentence the releasing doc explains', () => {
    expect(privateFeedProblem(true)).toMatch(/private.*404.*docs\/RELEASING\.md/s);
    expect(privateFeedProblem(false)).toBeNull();
  });
});

describe('the update check’s plan', () => {
  const facts = { previous: 'v1.3.0', macSigned: false, winSigned: false } as const;

  it('skips with a reason when there is no previous tag, on every OS', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(updateCheckPlan({ ...facts, platform, previous: null, macSigned: true })).toEqual({
        run: false,
        reason: expect.stringMatching(/no release tag before/) as unknown,
      });
  });

  it('skips an unsigned Mac (so its previous tag is not built), installs on a signed one', () => {
    expect(updateCheckPlan({ ...facts, platform: 'darwin' })).toMatchObject({ run: false });
    expect(updateCheckPlan({ ...facts, platform: 'darwin', macSigned: true })).toEqual({
      run: true,
      installs: true,
    });
  });

  it('Windows installs only when signed; unsigned, it announces as Linux does', () => {
    expect(updateCheckPlan({ ...facts, platform: 'win32', winSigned: true })).toEqual({
      run: true,
      installs: true,
    });
    expect(updateCheckPlan({ ...facts, platform: 'win32' })).toEqual({
      run: true,
      installs: false,
    });
    expect(updateCheckPlan({ ...facts, platform: 'linux', winSigned: true })).toEqual({
      run: true,
      installs: false,
    });
  });

  it('builds the previous tag for the runner’s CPU only, as a release', () => {
    expect(previousDistArgs(['--x64', '--arm64'], 'arm64')).toEqual(['--release', '--arm64']);
    expect(previousDistArgs(['--release', '--universal', '--publish', 'never'], 'x64')).toEqual([
      '--release',
      '--publish',
      'never',
      '--x64',
    ]);
    expect(previousDistArgs([], 'x64')).toEqual(['--release', '--x64']);
  });
});

describe('every wait ends', () => {
  it('a promise that never settles fails after its limit, naming what it waited for', async () => {
    const clock = new ManualClock();
    const never = new Promise<void>(() => undefined);
    let failure: unknown = null;
    void within(never, 120_000, 'the old app to exit', clock).catch((error: unknown) => {
      failure = error;
    });
    await clock.advance(119_999);
    expect(failure).toBeNull();
    await clock.advance(1);
    expect(failure).toBeInstanceOf(WaitTimeout);
    expect(String(failure)).toContain('Gave up waiting for the old app to exit after 120 s.');
    expect(clock.pending).toBe(0);
  });

  it('a promise that settles in time passes its value and leaves no timer', async () => {
    const clock = new ManualClock();
    await expect(within(Promise.resolve(7), 1_000, 'x', clock)).resolves.toBe(7);
    expect(clock.pending).toBe(0);
  });

  it('polling stops at its limit when the condition never holds', async () => {
    const clock = new ManualClock();
    let asked = 0;
    let failure: unknown = null;
    void pollUntil('v1.3.0 to find v1.4.0', () => (asked++, false), 300_000, clock).catch(
      (error: unknown) => {
        failure = error;
      },
    );
    await clock.advance(299_000);
    expect(failure).toBeNull();
    await clock.advance(2_000);
    expect(String(failure)).toContain('Gave up waiting for v1.3.0 to find v1.4.0 after 300 s.');
    expect(asked).toBeGreaterThan(100);
  });

  it('polling ends as soon as the condition holds', async () => {
    const clock = new ManualClock();
    let ready = false;
    let done = false;
    void pollUntil('the installed app to become 1.4.0', () => ready, 300_000, clock).then(() => {
      done = true;
    });
    await clock.advance(10_000);
    expect(done).toBe(false);
    ready = true;
    await clock.advance(2_000);
    expect(done).toBe(true);
  });
});
