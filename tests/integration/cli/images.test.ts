/**
 * Downloading from the image origin the way real object stores behave: expired signed URLs,
 * a redirect hop, a generic content type, bytes that are not an image.
 */
import { describe, expect, it } from 'vitest';
import { expectExit, expectSavedImage, onlyTask, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

describe('pictor generate downloading images', () => {
  it('URLs that already expired (403): image state expired, exit 4', async () => {
    const world = await newWorld({ durationMs: 300, cdn: { expireAfterMs: 0 } });
    const run = await world.run(['generate', '--prompt', 'too late', '--json']);
    expectExit(run, 4);
    const line = onlyTask(run);
    expect(line).toMatchObject({ status: 'completed', exitCode: 4 });
    expect(line.images).toHaveLength(1);
    expect(line.images[0]).toMatchObject({ state: 'expired', path: null });
    expect(line.images[0]!.error).toEqual(expect.any(String));
    expect(world.service.cdnRequests().map((entry) => entry.status)).toContain(403);
  });

  it('follows a 302 on the image origin to the real path', async () => {
    const world = await newWorld({ durationMs: 300, cdn: { redirect: true } });
    const run = await world.run(['generate', '--prompt', 'detour', '--size', '30x20', '--json']);
    expectExit(run, 0);
    const image = onlyTask(run).images[0]!;
    expect(image.state).toBe('saved');
    await expectSavedImage(image.path!, { width: 30, height: 20 });
    const cdn = world.service
      .cdnRequests()
      .map((entry) => [entry.status, entry.path.split('?')[0]]);
    expect(cdn[0]![0]).toBe(302);
    expect(cdn[0]![1]).toMatch(/^\/r\//);
    expect(cdn.at(-1)![0]).toBe(200);
    expect(cdn.at(-1)![1]).toMatch(/^\/files\//);
  });

  it('accepts a real PNG served as application/octet-stream (the bytes decide)', async () => {
    const world = await newWorld({ durationMs: 300, cdn: { octetStream: true } });
    const run = await world.run(['generate', '--prompt', 'plain bytes', '--json']);
    expectExit(run, 0);
    const image = onlyTask(run).images[0]!;
    expect(image.state).toBe('saved');
    await expectSavedImage(image.path!, { width: 64, height: 64 });
  });

  it('refuses an HTML page labelled image/png: image state invalid, exit 4', async () => {
    const world = await newWorld({ durationMs: 300, cdn: { corrupt: true } });
    const run = await world.run(['generate', '--prompt', 'not a picture', '--json']);
    expectExit(run, 4);
    const line = onlyTask(run);
    expect(line.images[0]).toMatchObject({ state: 'invalid', path: null });
  });
});
