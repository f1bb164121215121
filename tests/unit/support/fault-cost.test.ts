/**
 * The fault-cost probe's arithmetic (tests/support/fault-cost.ts), on figures worked by hand, and
 * the probe itself on this machine: each fresh page is one fault, and taking it costs time.
 */
import { describe, expect, it } from 'vitest';
import {
  PAGE_BYTES,
  faultCostOf,
  faultCostOfRounds,
  faultsOf,
  faultsOfStat,
  FRESH_SHARE,
  probeFaultCost,
  type ProbeRound,
  rendererFaultLimit,
  workRatio,
} from '../../support/fault-cost';

describe('the fault-cost arithmetic', () => {
  it('reads minflt and majflt after a command name that holds spaces and parentheses', () => {
    const stat =
      '4242 (Chrome_ChildIOT) (x)) S 1 4242 4242 0 -1 4194560 12345 99 7 3 250 40 0 0 20 0 9 0';
    expect(faultsOfStat(stat)).toEqual({ minor: 12345, major: 7 });
  });

  it('a fault costs what the first pass took beyond the second, per fault', () => {
    expect(faultCostOf({ pages: 10_000, faults: 10_000, firstTouchMs: 30, retouchMs: 10 })).toBe(
      0.002,
    );
    // No fault, or a second pass slower than the first (a tick's noise): nothing to charge.
    expect(faultCostOf({ pages: 10, faults: 0, firstTouchMs: 5, retouchMs: 1 })).toBe(0);
    expect(faultCostOf({ pages: 10, faults: 10, firstTouchMs: 1, retouchMs: 2 })).toBe(0);
  });

  it('takes the median over rounds (the middle one, or the mean of the middle two)', () => {
    const round = (firstTouchMs: number) => ({
      pages: 100,
      faults: 100,
      firstTouchMs,
      retouchMs: 0,
    });
    expect(faultCostOfRounds([round(3), round(1), round(2)]).msPerFault).toBeCloseTo(0.02);
    expect(faultCostOfRounds([round(4), round(1), round(2), round(3)]).msPerFault).toBeCloseTo(
      0.025,
    );
  });

  it('takes the faults out of both sides of the work ratio', () => {
    // The figures: the page 67 ms and 10,500 faults, sharp 57 ms and 950, 1.4 µs a fault.
    const ratio = workRatio({ cpuMs: 67, faults: 10_500 }, { cpuMs: 57, faults: 950 }, 0.0014);
    expect(ratio).toBeCloseTo((67 - 14.7) / (57 - 1.33), 10);
    // Where faults cost 18 µs, the same work reads the same ratio…
    const slow = workRatio(
      { cpuMs: 52.3 + 10_500 * 0.018, faults: 10_500 },
      { cpuMs: 55.67 + 950 * 0.018, faults: 950 },
      0.018,
    );
    expect(slow).toBeCloseTo(ratio, 10);
    // …which the raw one does not.
    expect((52.3 + 10_500 * 0.018) / (55.67 + 950 * 0.018)).toBeGreaterThan(2.4);
    // A side with no work left is not divided by.
    expect(workRatio({ cpuMs: 1, faults: 0 }, { cpuMs: 1, faults: 1000 }, 0.001)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('bounds the page renderer’s faults by the file and the pixels it must hold', () => {
    const encoded = 8 * 1024 * 1024;
    expect(rendererFaultLimit(encoded, 2048, 2048)).toBeCloseTo(
      1.05 * ((encoded + 4 * 2048 * 2048) / PAGE_BYTES + 300),
      10,
    );
    expect(rendererFaultLimit(encoded, 2048, 2048)).toBeCloseTo(6766.2, 6);
  });
});

describe('the probe’s rounds', () => {
  /** Rounds that fault on `shares` of their pages, in turn, each 10 ms longer the first time. */
  function rounds(...shares: number[]): (pages: number) => ProbeRound {
    let next = 0;
    return (pages) => {
      const share = shares[Math.min(next, shares.length - 1)] ?? 1;
      next += 1;
      return { pages, faults: Math.round(pages * share), firstTouchMs: 20, retouchMs: 10 };
    };
  }

  it('takes again a round not faulted page by page, and counts it', () => {
    // The busy run's round: 12 faults for 12,288 pages, then fresh pages.
    const probed = probeFaultCost(4096, 3, rounds(12 / 12_288, 1, 0.95, 1));
    expect(probed.retaken).toBe(1);
    expect(probed.rounds).toHaveLength(3);
    for (const round of probed.rounds) {
      expect(round.faults).toBeGreaterThanOrEqual(round.pages * FRESH_SHARE);
    }
    expect(probed.msPerFault).toBeCloseTo(10 / 12_288, 10);
  });

  it('fails clearly where no round faults page by page, within rounds × 4 rounds', () => {
    let taken = 0;
    const huge = rounds(0.001);
    const take = (pages: number): ProbeRound => {
      taken += 1;
      return huge(pages);
    };
    expect(() => probeFaultCost(4096, 3, take)).toThrow(
      /took 12 of 12 rounds with fewer faults than 90 % of their pages/,
    );
    expect(taken).toBe(12);
  });
});

describe('the probe on this machine', () => {
  it('takes about one fault per fresh page, and each costs CPU time', () => {
    const before = faultsOf('self');
    // Asked for 16 MiB: it takes its least, past the allocator's reuse of freed memory.
    const { msPerFault, rounds } = probeFaultCost(4096, 3);
    expect(before).toBeGreaterThan(0);
    for (const round of rounds) {
      expect(round.pages * PAGE_BYTES).toBeGreaterThanOrEqual(48 * 1024 * 1024);
      expect(round.faults).toBeGreaterThanOrEqual(round.pages * 0.9);
      expect(round.firstTouchMs).toBeGreaterThan(0);
    }
    expect(msPerFault).toBeGreaterThan(0);
    // Under a millisecond a fault on any machine the bench runs on.
    expect(msPerFault).toBeLessThan(1);
  });
});
