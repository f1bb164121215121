/**
 * The demo service process of a spec file, and what it saw: the requests it logged, as
 * DemoProcess reports them.
 */
import { test } from '@playwright/test';
import {
  startDemoProcess,
  type DemoProcess,
  type DemoProcessOptions,
} from '../../harness/demo-process';

/** What the service process saw. */
export type ServiceLog = Awaited<ReturnType<DemoProcess['log']>>;

/**
 * One demo service process for the spec file that calls this (at its top level): started before
 * its first test, stopped after its last. The returned object stands for the running process
 * and may be used only inside tests and hooks.
 */
export function useDemoProcess(options: DemoProcessOptions): DemoProcess {
  let started: DemoProcess | undefined;
  const running = (): DemoProcess => {
    if (!started) throw new Error('The demo process is not running (use it inside a test).');
    return started;
  };
  test.beforeAll(async () => {
    started = await startDemoProcess(options);
  });
  test.afterAll(async () => {
    await started?.stop();
    started = undefined;
  });
  return {
    get url() {
      return running().url;
    },
    get directUrl() {
      return running().directUrl;
    },
    log: () => running().log(),
    tasks: () => running().tasks(),
    control: (path, body) => running().control(path, body),
    clearFaults: () => running().clearFaults(),
    goOffline: () => running().goOffline(),
    goOnline: () => running().goOnline(),
    stop: () => running().stop(),
  };
}
