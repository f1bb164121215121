/**
 * The bounded retry around hdiutil: a passing failure ("Resource busy", exit 16) runs again after
 * its delay, at most the policy's number of runs; any other failure, and success, end at once.
 * The waits are recorded, never slept.
 */
import { describe, expect, it } from 'vitest';
import {
  HDIUTIL_RETRIES,
  failedOnTransientHdiutil,
  isTransientHdiutil,
  retryTransient,
  type Attempt,
} from '../../../electron/build/transient-retry';

const BUSY: Attempt = { code: 1, output: 'hdiutil: detach failed - Resource busy' };
const OK: Attempt = { code: 0, output: '/dev/disk4 /Volumes/Pictor' };

function scripted(answers: Attempt[]) {
  const waits: number[] = [];
  let runs = 0;
  return {
    waits,
    get runs() {
      return runs;
    },
    run: async (): Promise<Attempt> => answers[runs++] ?? OK,
    options: { sleep: async (ms: number) => void waits.push(ms) },
  };
}

describe('hdiutil’s passing failures', () => {
  it.each([
    [{ code: 16, output: '' }, true],
    [{ code: 35, output: '' }, true],
    [{ code: 49153, output: '' }, true],
    [BUSY, true],
    [{ code: 1, output: 'hdiutil: create failed - Resource temporarily unavailable' }, true],
    [{ code: 1, output: 'hdiutil: attach failed - no mountable file systems' }, false],
    [{ code: 1, output: 'hdiutil: create failed - No space left on device' }, false],
    [OK, false],
  ])('%j passes: %s', (attempt, transient) => {
    expect(isTransientHdiutil(attempt)).toBe(transient);
  });

  it('tells an electron-builder run that failed on hdiutil from one that failed otherwise', () => {
    expect(
      failedOnTransientHdiutil({
        code: 1,
        output: '⨯ hdiutil error: Resource busy: The volume is in use. code=16',
      }),
    ).toBe(true);
    expect(failedOnTransientHdiutil({ code: 1, output: '⨯ Cannot find module "zod"' })).toBe(false);
    // "Resource busy" from something that is not hdiutil is not this retry's business.
    expect(failedOnTransientHdiutil({ code: 1, output: 'rm: Resource busy' })).toBe(false);
  });
});

describe('retryTransient', () => {
  it('runs again after each passing failure, waiting longer each time, until it passes', async () => {
    const script = scripted([BUSY, BUSY, OK]);
    const said: string[] = [];
    const outcome = await retryTransient(() => script.run(), HDIUTIL_RETRIES, {
      ...script.options,
      say: (line) => void said.push(line),
    });
    expect(outcome).toMatchObject({ code: 0, runs: 3 });
    expect(script.waits).toEqual([5_000, 10_000]);
    expect(said[0]).toMatch(/^run 1 of 4 failed \(exit 1\) on a passing error; again in 5 s$/);
  });

  it('gives up after the policy’s number of runs, with the last failure', async () => {
    const script = scripted([BUSY, BUSY, BUSY, BUSY, BUSY, BUSY]);
    const outcome = await retryTransient(() => script.run(), HDIUTIL_RETRIES, script.options);
    expect(outcome).toMatchObject({ code: 1, runs: 4, output: BUSY.output });
    expect(script.runs).toBe(4);
    expect(script.waits).toEqual([5_000, 10_000, 20_000]);
  });

  it('fails at once on a failure that is not passing, and never retries a success', async () => {
    const broken = scripted([{ code: 1, output: 'hdiutil: attach failed - image not recognized' }]);
    expect(await retryTransient(() => broken.run(), HDIUTIL_RETRIES, broken.options)).toMatchObject(
      { code: 1, runs: 1 },
    );
    const fine = scripted([OK]);
    expect(await retryTransient(() => fine.run(), HDIUTIL_RETRIES, fine.options)).toMatchObject({
      code: 0,
      runs: 1,
    });
    expect([...broken.waits, ...fine.waits]).toEqual([]);
  });
});
