/**
 * One library, many processes. The app's core (in this process) generates while two
 * `pictor generate` commands and a `pictor list` run on the same data folder: every command
 * succeeds, every task is submitted once and polled by one process only, and the app shows the
 * commands' tasks (created, then completed) from the shared history alone. How soon is the change
 * feed's interval (unit-tested on its own); here it is waited for, not timed, so a loaded machine
 * cannot fail it.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import type { FetchLike } from '../../../electron/ports/http';
import { QUIRKY_KEYS, type LoggedRequest } from '../../fakes/quirky-service';
import { StaticCredentials } from '../../fakes/static-credentials';
import { expectExit, useCliWorlds } from './cli-harness';
import { describeRun, jsonLines } from './run-cli';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';

// Real processes: the commands share the library with the app's core in this process.
const newWorld = useCliWorlds({ process: true });

/** Which process sent a request: the app marks its own; the two commands use different keys. */
function sender(entry: LoggedRequest): string {
  return `${String(entry.headers['x-test-process'] ?? 'cli')} ${String(entry.headers.authorization)}`;
}

describe('one library shared by the app and CLI commands', () => {
  it('two generate commands and a list while the app generates: all succeed, each task polled by one process', async () => {
    const world = await newWorld({ durationMs: 900 });
    const markApp: FetchLike = (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('x-test-process', 'app');
      return fetch(url, { ...init, headers });
    };
    const app = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: world.dataDir,
      galleryDir: join(world.dataDir, 'gallery'),
      fetch: markApp,
      credentials: new StaticCredentials(world.service.baseUrl, QUIRKY_KEYS.alice),
      clock: systemClock,
      engine: { pollIntervalMs: 200 },
      ...bundledCoreWorkers(),
    });
    const shown = new Map<string, { statuses: Set<string>; record: TaskRecord }>();
    app.engine.onDidUpdate(({ record }) => {
      const entry = shown.get(record.localId) ?? { statuses: new Set(), record };
      entry.statuses.add(record.status);
      shown.set(record.localId, { ...entry, record });
    });
    app.engine.start({ resume: true });
    try {
      const appTasks = await app.engine.submit(
        { prompt: 'from the app window' },
        targetAt(world.service.baseUrl),
        3,
      );
      const first = world.run(['generate', '--prompt', 'first command', '--count', '3', '--json']);
      const second = world.run(
        ['generate', '--prompt', 'second command', '--count', '3', '--json'],
        { key: QUIRKY_KEYS.alice2 },
      );
      // `list` while both commands are still at work (their tasks are in, not finished).
      await vi.waitFor(
        () => {
          const fromCommands = [...shown.values()].filter(
            (entry) => entry.record.request.prompt !== 'from the app window',
          );
          expect(fromCommands.length).toBeGreaterThan(0);
        },
        { timeout: 20_000, interval: 20 },
      );
      const listed = await world.run(['list', '--json']);
      const runs = [await first, await second];
      expectExit(listed, 0);
      expect(jsonLines(listed).length).toBeGreaterThanOrEqual(3);
      for (const run of runs) expectExit(run, 0);
      await app.engine.whenSettled(appTasks.map((task) => task.localId));

      const commandTasks = runs.flatMap((run) => jsonLines(run));
      expect(commandTasks).toHaveLength(6);
      // The app showed each command's tasks and their completion (no second poll of the service:
      // the app read the history).
      for (const task of commandTasks) {
        await vi.waitFor(
          () =>
            expect(
              shown.get(task.localId)?.statuses,
              `the app never showed ${task.localId}`,
            ).toContain('completed'),
          { timeout: 20_000, interval: 20 },
        );
      }
      // Submitted once each, and every task's polls came from one process.
      const all = [...appTasks.map((task) => app.engine.get(task.localId)!), ...commandTasks];
      expect(world.service.submits()).toHaveLength(9);
      for (const task of all) {
        expect(task.taskId).not.toBeNull();
        const senders = new Set(world.service.polls(task.taskId!).map(sender));
        expect(senders.size, `task ${task.taskId} polled by ${[...senders].join(', ')}`).toBe(1);
      }
      const final = await world.list();
      expect(final.map((task) => task.status)).toEqual(Array(9).fill('completed'));
    } finally {
      await app.close();
    }
    const describeAll = world.runs.map(describeRun).join('\n');
    expect(
      world.runs.every((run) => !run.stderr.includes('Another Pictor')),
      describeAll,
    ).toBe(true);
  }, 90_000);
});
