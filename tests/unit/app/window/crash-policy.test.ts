import { describe, expect, it } from 'vitest';
import { RendererCrashPolicy } from '../../../../electron/app/window/crash-policy';

const crash = { reason: 'crashed', exitCode: 11 };

describe('what to do when the window’s renderer dies', () => {
  it('reloads up to three times in five minutes, then asks; a clean exit is not a crash', () => {
    let now = 0;
    const policy = new RendererCrashPolicy({ now: () => now });
    expect(policy.decide({ reason: 'clean-exit', exitCode: 0 })).toBe('ignore');
    expect([1, 2, 3].map(() => policy.decide(crash))).toEqual(['reload', 'reload', 'reload']);
    now += 60_000;
    expect(policy.decide({ reason: 'oom', exitCode: -1 })).toBe('ask');
    policy.reset();
    expect(policy.decide(crash)).toBe('reload');
  });

  it('forgets crashes older than its window', () => {
    let now = 0;
    const policy = new RendererCrashPolicy({ now: () => now, maxReloads: 2, windowMs: 1_000 });
    expect(policy.decide(crash)).toBe('reload');
    expect(policy.decide(crash)).toBe('reload');
    now = 1_000;
    expect(policy.decide(crash)).toBe('reload');
    expect(policy.decide(crash)).toBe('reload');
    expect(policy.decide(crash)).toBe('ask');
  });
});
