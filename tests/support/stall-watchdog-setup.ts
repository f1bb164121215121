/**
 * Setup of every Vitest project: one stall watchdog per test process or thread
 * (stall-watchdog.ts), kept on `process` so the files that share a thread, or a thread's VM
 * contexts, start it once; each test names itself to it before it runs.
 */
import { beforeEach, expect } from 'vitest';
import { startStallWatchdog } from './stall-watchdog';

/** Longer than any test here keeps its thread busy without a turn of the event loop. */
const STALL_MS = 240_000;

const KEY = Symbol.for('pictor.stallWatchdog');
const holder = process as unknown as Record<symbol, ((test: string) => void) | undefined>;
const name = (holder[KEY] ??= startStallWatchdog(STALL_MS));

beforeEach(() => {
  const state = expect.getState();
  name(`${state.testPath ?? ''} > ${state.currentTestName ?? ''}`);
});
