import type { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../fakes/manual-clock';

const electron = vi.hoisted(() => ({
  net: { online: true as boolean, isOnline: (): boolean => true },
  powerMonitor: null as unknown as EventEmitter,
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  electron.powerMonitor = new Emitter();
  electron.net.isOnline = () => electron.net.online;
  return { net: electron.net, powerMonitor: electron.powerMonitor };
});

const { watchPowerAndNetwork } = await import('../../../electron/adapters/power-and-network');

function start() {
  const clock = new ManualClock();
  const wakes: string[] = [];
  const changes: boolean[] = [];
  const watch = watchPowerAndNetwork({
    clock,
    pollMs: 5_000,
    onlineAfterMs: 2_000,
    offlineAfterMs: 8_000,
    onWake: (reason) => wakes.push(reason),
    onOnlineChanged: (online) => changes.push(online),
  });
  return { clock, wakes, changes, watch };
}

beforeEach(() => {
  electron.net.online = true;
  electron.powerMonitor.removeAllListeners();
});

describe('watchPowerAndNetwork', () => {
  it('resume and unlock-screen wake the engine', () => {
    const { wakes } = start();
    electron.powerMonitor.emit('resume');
    electron.powerMonitor.emit('unlock-screen');
    expect(wakes).toEqual(['resume', 'unlock-screen']);
  });

  it('starts from net.isOnline() without reporting a change', async () => {
    electron.net.online = false;
    const { clock, watch, changes } = start();
    expect(watch.online()).toBe(false);
    await clock.advance(30_000);
    expect(changes).toEqual([]);
  });

  it('polls every 5 s: offline is reported once it holds, and coming back wakes the engine', async () => {
    const { clock, watch, wakes, changes } = start();
    electron.net.online = false;
    await clock.advance(5_000); // first offline sample
    await clock.advance(5_000);
    expect(changes).toEqual([]);
    await clock.advance(3_000); // 8 s after the first offline sample
    expect(changes).toEqual([false]);
    expect(watch.online()).toBe(false);
    electron.net.online = true;
    await clock.advance(2_000); // the poll at 15 s sees it
    expect(changes).toEqual([false]);
    await clock.advance(1_999);
    expect(changes).toEqual([false]);
    await clock.advance(1);
    expect(changes).toEqual([false, true]);
    expect(wakes).toEqual(['online']);
  });

  it('a one-poll blip is not reported', async () => {
    const { clock, changes } = start();
    electron.net.online = false;
    await clock.advance(5_000);
    electron.net.online = true;
    await clock.advance(60_000);
    expect(changes).toEqual([]);
  });

  it('resume samples at once, so coming back after sleep is seen without waiting for a poll', async () => {
    electron.net.online = false;
    const { clock, wakes, changes } = start();
    electron.net.online = true;
    await clock.advance(1_000);
    electron.powerMonitor.emit('resume');
    await clock.advance(2_000);
    expect(changes).toEqual([true]);
    expect(wakes).toEqual(['resume', 'online']);
  });

  it('a net.isOnline() that throws keeps the current state', async () => {
    const { clock, changes } = start();
    electron.net.isOnline = () => {
      throw new Error('not ready');
    };
    await clock.advance(60_000);
    expect(changes).toEqual([]);
    electron.net.isOnline = () => electron.net.online;
  });

  it('dispose stops polling and removes the listeners', async () => {
    const { clock, watch, wakes } = start();
    watch.dispose();
    expect(clock.pending).toBe(0);
    electron.powerMonitor.emit('resume');
    expect(wakes).toEqual([]);
    expect(electron.powerMonitor.listenerCount('resume')).toBe(0);
    expect(electron.powerMonitor.listenerCount('unlock-screen')).toBe(0);
  });
});
