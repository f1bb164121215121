/**
 * `pictor generate` against the quirky service: images land in the gallery, one submit per
 * task, the key goes to the API and nowhere else.
 */
import { dirname, join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, expectSavedImage, useCliWorlds } from './cli-harness';
import { describeRun, jsonLines } from './run-cli';

// Real processes: here and in usage.test.ts the CLI's process itself is checked (its arguments,
// its exit once its work is done); the other files run the CLI's entry in the test's process.
const newWorld = useCliWorlds({ process: true });

describe('pictor generate', () => {
  it('submits once, polls, saves a real PNG with thumbnail and sidecar, prints its path', async () => {
    const world = await newWorld({ durationMs: 700 });
    const prompt = 'a red fox in fresh snow';
    const run = await world.run(['generate', '--prompt', prompt, '--size', '48x32']);
    expectExit(run, 0);
    const paths = run.stdout.split('\n').filter((line) => line.trim() !== '');
    expect(paths, describeRun(run)).toHaveLength(1);
    expect(paths[0]!.startsWith(join(world.dataDir, 'gallery') + sep)).toBe(true);
    const sidecar = JSON.stringify(await expectSavedImage(paths[0]!, { width: 48, height: 32 }));
    const [task] = world.service.tasks();
    expect(sidecar).toContain(task!.id);
    expect(sidecar).toContain(prompt);
    expect(run.stderr, 'progress names the task id').toContain(task!.id);

    const submits = world.service.submits();
    expect(submits).toHaveLength(1);
    expect(JSON.parse(submits[0]!.body)).toMatchObject({ prompt, size: '48x32' });
    expect(submits[0]!.headers.authorization).toBe(`Bearer ${QUIRKY_KEYS.alice}`);
    expect(submits[0]!.headers['content-type']).toMatch(/^application\/json/);
    const polls = world.service.polls(task!.id);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(
      polls.every((poll) => poll.headers.authorization === `Bearer ${QUIRKY_KEYS.alice}`),
    ).toBe(true);
  });

  it('--count 3 --json makes three tasks with three submits, into --gallery-dir', async () => {
    const world = await newWorld({
      durationMs: 500,
      outcome: () => ({ kind: 'completed', images: 2 }),
    });
    const gallery = join(world.dataDir, 'my-pictures');
    const run = await world.run([
      'generate',
      '--prompt',
      'three owls on a branch',
      '--count',
      '3',
      '--gallery-dir',
      gallery,
      '--json',
    ]);
    expectExit(run, 0);
    const lines = jsonLines(run);
    const serviceIds = world.service.tasks().map((task) => task.id);
    expect(serviceIds).toHaveLength(3);
    expect(world.service.submits()).toHaveLength(3);
    expect(lines.map((line) => line.taskId).sort()).toEqual([...serviceIds].sort());
    const folders = new Set<string>();
    for (const line of lines) {
      expect(line).toMatchObject({ status: 'completed', hold: null, error: null, exitCode: 0 });
      expect(line.images.map((image) => image.state)).toEqual(['saved', 'saved']);
      for (const image of line.images) {
        expect(image.path!.startsWith(gallery + sep), image.path!).toBe(true);
        expect([image.width, image.height, image.error]).toEqual([64, 64, null]);
        await expectSavedImage(image.path!, { width: 64, height: 64 });
      }
      expect(new Set(line.images.map((image) => dirname(image.path!))).size).toBe(1);
      folders.add(dirname(line.images[0]!.path!));
    }
    expect(folders.size, 'each task has its own folder').toBe(3);
    const listed = await world.list();
    expect(listed.map((task) => task.taskId).sort()).toEqual([...serviceIds].sort());
    expect(listed.every((task) => task.status === 'completed')).toBe(true);
  });

  it('uses the base URL as a prefix: a service under /gateway gets /gateway/v1/...', async () => {
    const world = await newWorld({ durationMs: 300, basePath: '/gateway' });
    const run = await world.run(['generate', '--prompt', 'lighthouse', '--json']);
    expectExit(run, 0);
    expect(world.service.submits().map((submit) => submit.status)).toEqual([200]);
    const [task] = world.service.tasks();
    const polls = world.service.polls(task!.id);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.every((poll) => poll.path.startsWith('/gateway/v1/tasks/'))).toBe(true);
  });
});
