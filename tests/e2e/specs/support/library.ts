/**
 * A library of finished tasks for journeys that look at it rather than make it (layout): made
 * once per worker process through the app as a user makes it (Generate per prompt, every task
 * completed, every thumbnail decoded), then copied into each test's fresh folders before its own
 * app starts on them. Each test still has its own app, data and gallery; only the wait for the
 * same tasks to be made again, test after test, goes. Making tasks through the form is what
 * 01-first-run and the other journeys prove.
 *
 * The copy is kept per process (Playwright loads a worker's files once), not in a worker fixture:
 * a file on an extended `test` would need workers of its own. It is removed when the process
 * exits. A file that starts on a library makes it in a `beforeAll` ({@link makeLibraryFirst}),
 * with a hook's own time, so the test that happens to run first in a worker does not spend its
 * time on another app's start and tasks.
 */
import { rmSync } from 'node:fs';
import { test } from '@playwright/test';
import { cp } from 'node:fs/promises';
import { basename } from 'node:path';
import { makeAppFolders, type AppFolders } from '../../harness/disk';
import { launchApp, type LaunchedApp } from '../../harness/launch-app';
import { FAST_ENV, type AppSession, type SessionLaunchOptions } from './session';
import { expectLoadedImage, generateAll, taskRows } from './ui';

/** The finished libraries made in this process, by their prompts. */
const made = new Map<string, Promise<AppFolders>>();

async function makeLibrary(prompts: readonly string[]): Promise<AppFolders> {
  const folders = await makeAppFolders('library');
  process.once('exit', () => rmSync(folders.root, { recursive: true, force: true }));
  const app = await launchApp({
    userDataDir: folders.userDataDir,
    galleryDir: folders.galleryDir,
    env: FAST_ENV,
  });
  try {
    await generateAll(app.page, prompts);
    for (const row of await taskRows(app.page).all()) await expectLoadedImage(row.getByRole('img'));
  } finally {
    // Closed: the history is written out and its folder unlocked before it is copied.
    await app.close();
  }
  return folders;
}

/** This process's library of `prompts`, made by the first test that asks. */
function library(prompts: readonly string[]): Promise<AppFolders> {
  const key = prompts.join('\n');
  let folders = made.get(key);
  if (!folders) {
    folders = makeLibrary(prompts);
    // A library that could not be made is made again by the next test that asks.
    folders.catch(() => made.delete(key));
    made.set(key, folders);
  }
  return folders;
}

/**
 * Registers (at the top level of the spec file that calls it) a `beforeAll` that makes this
 * process's library of `prompts` unless it is made already.
 */
export function makeLibraryFirst(prompts: readonly string[]): void {
  test.beforeAll(async () => {
    await library(prompts);
  });
}

/**
 * Starts the session's app on a copy of the library of `prompts` (the history, settings and
 * gallery files; not the logs of the app that made it).
 */
export async function launchWithLibrary(
  session: AppSession,
  prompts: readonly string[],
  options: SessionLaunchOptions = {},
): Promise<LaunchedApp> {
  const from = await library(prompts);
  const to = session.folders;
  await cp(from.userDataDir, to.userDataDir, {
    recursive: true,
    filter: (path) => basename(path) !== 'logs',
  });
  await cp(from.galleryDir, to.galleryDir, { recursive: true });
  return session.launch(options);
}
