/**
 * The demo service process of a spec file, and what it saw: its tasks and the requests it
 * logged, as DemoProcess reports them.
 */
import { expect, test } from '@playwright/test';
import {
  startDemoProcess,
  type DemoProcess,
  type DemoProcessOptions,
} from '../../harness/demo-process';

/** What the service process saw. */
export type ServiceLog = Awaited<ReturnType<DemoProcess['log']>>;
export type ServiceTask = Awaited<ReturnType<DemoProcess['tasks']>>[number];

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

/** The service's task with this prompt, once it has one (polls the control API). */
export async function serviceTask(demo: DemoProcess, prompt: string): Promise<ServiceTask> {
  let found: ServiceTask | undefined;
  await expect
    .poll(async () => {
      found = (await demo.tasks()).find((task) => task.prompt === prompt);
      return found !== undefined;
    })
    .toBe(true);
  if (!found) throw new Error(`The service has no task for “${prompt}”.`);
  return found;
}

/** Requests of one route that carried this account's key. */
export function byAccount<T extends { account: string | null }>(
  entries: readonly T[],
  account: string,
): T[] {
  return entries.filter((entry) => entry.account === account);
}

/** Polls of one task id. */
export function pollsOf(log: ServiceLog, taskId: string): ServiceLog['polls'] {
  return log.polls.filter((entry) => entry.path.startsWith(`/v1/tasks/${taskId}`));
}
