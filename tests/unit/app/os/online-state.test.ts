import { describe, expect, it } from 'vitest';
import { OnlineState } from '../../../../electron/app/os/online-state';
import { ManualClock } from '../../../fakes/manual-clock';

function setup(initial = true) {
  const clock = new ManualClock();
  const changes: boolean[] = [];
  const state = new OnlineState({
    clock,
    initial,
    onlineAfterMs: 2_000,
    offlineAfterMs: 8_000,
    onChange: (online) => changes.push(online),
  });
  return { clock, changes, state };
}

describe('OnlineState', () => {
  it('starts from the initial value without reporting it', async () => {
    const { clock, changes, state } = setup(false);
    await clock.advance(60_000);
    expect(state.online).toBe(false);
    expect(changes).toEqual([]);
  });

  it('reports offline once it has held for 8 s', async () => {
    const { clock, changes, state } = setup();
    state.sample(false);
    await clock.advance(5_000);
    state.sample(false); // a repeat does not restart the wait
    await clock.advance(2_999);
    expect(changes).toEqual([]);
    expect(state.online).toBe(true);
    await clock.advance(1);
    expect(changes).toEqual([false]);
    expect(state.online).toBe(false);
  });

  it('reports coming back after 2 s', async () => {
    const { clock, changes, state } = setup(false);
    state.sample(true);
    await clock.advance(1_999);
    expect(changes).toEqual([]);
    await clock.advance(1);
    expect(changes).toEqual([true]);
  });

  it('a blip shorter than the wait reports nothing', async () => {
    const { clock, changes, state } = setup();
    state.sample(false);
    await clock.advance(3_000);
    state.sample(true);
    await clock.advance(60_000);
    expect(changes).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it('flapping every few seconds reports nothing until one value holds', async () => {
    const { clock, changes, state } = setup();
    for (let i = 0; i < 10; i += 1) {
      state.sample(i % 2 === 1);
      await clock.advance(3_000);
    }
    expect(changes).toEqual([]);
    state.sample(false);
    await clock.advance(8_000);
    expect(changes).toEqual([false]);
    state.sample(true);
    await clock.advance(1_000);
    state.sample(false);
    await clock.advance(1_000);
    state.sample(true);
    await clock.advance(2_000);
    expect(changes).toEqual([false, true]);
  });

  it('dispose cancels a pending change', async () => {
    const { clock, changes, state } = setup();
    state.sample(false);
    state.dispose();
    await clock.advance(60_000);
    expect(changes).toEqual([]);
  });
});
