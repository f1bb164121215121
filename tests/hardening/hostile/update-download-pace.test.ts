/**
 * A hostile or broken release feed on loopback that holds the installer download open: it never
 * answers, or sends its headers and then nothing, or a trickle far below any real link's pace. In
 * the app nothing times such a download out (electron-updater's timeout waits for a `socket` event
 * Electron's ClientRequest never emits), and while it runs every later check waits for it: updates
 * would stop until a restart. Pictor gives it up below about 1 KiB/s over a minute, on the clock
 * (download-pace.ts), as a network fault; the request is closed, nothing is kept or installed, and
 * the next check downloads a good release. A download that keeps the pace is left alone.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { MIN_BYTES_PER_WINDOW, PACE_WINDOW_MS } from '../../../electron/adapters/download-pace';
import { channelFile, type ServedFile } from '../../integration/updates/update-feed';
import { installerBytes } from '../../integration/updates/installer-files';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
  type Rig,
} from '../../integration/updates/updater-rig';
import { UNTIL } from '../../support/waits';

const world = useUpdaterWorld();
const INSTALLER = 'Pictor-Setup-0.2.0.exe';
const PATH = `/${INSTALLER}`;
/** Four windows' worth at the floor: a download that must keep the pace more than once. */
const SIZE = 4 * MIN_BYTES_PER_WINDOW + 1000;

/** A valid release of `bytes`, its installer served as `served` says. */
function release(bytes: Buffer, served: Omit<ServedFile, 'body'> = {}): void {
  serveChannelFile(world().feed, {
    body: channelFile({ version: '0.2.0', file: INSTALLER, bytes }),
  });
  world().feed.files.set(PATH, { ...served, body: bytes });
}

/** Starts a check whose download the feed holds; resolves once the installer was asked for. */
async function heldDownload(mode: 'stall' | 'silent') {
  const bytes = installerBytes('0.2.0', SIZE);
  release(bytes, { mode });
  const checked = rig(await updaterFor(world(), new NsisUpdater()));
  const pending = checked.service.checkNow();
  await world().feed.whenRequested(PATH);
  await vi.waitFor(() => expect(checked.service.state().status).toBe('downloading'), UNTIL);
  return { bytes, checked, pending };
}

/** Writes `bytes` on the held response and waits until the client has read them all. */
async function send(bytes: Buffer): Promise<void> {
  const response = world().feed.held.get(PATH);
  if (!response) throw new Error('The installer is not held.');
  const socket = world().electron.requests.find((request) => request.path === PATH)?.socket;
  const before = socket?.bytesRead ?? 0;
  response.write(bytes);
  await vi.waitFor(
    () => expect(socket?.bytesRead).toBeGreaterThanOrEqual(before + bytes.length),
    UNTIL,
  );
  // The chunk reaches the counting stream in the turns after the socket read it.
  await new Promise((resolve) => setImmediate(resolve));
}

async function cacheFiles(): Promise<string[]> {
  const entries = await readdir(join(world().dir, 'cache'), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** Given up as a network fault; the request closed; nothing kept; the next check downloads. */
async function expectGivenUp(checked: Rig, pending: Promise<unknown>): Promise<void> {
  expect(await pending).toMatchObject({ status: 'error', problem: 'offline', version: '0.2.0' });
  expect(checked.warnings.join('\n')).toMatch(/installer download brought under \d+ bytes/);
  await world().feed.whenAbandoned(PATH);
  await vi.waitFor(async () => expect(await cacheFiles()).toEqual([]), UNTIL);
  expect(checked.installs).not.toHaveBeenCalled();
  expect(world().escaped).toEqual([]);

  release(installerBytes('0.2.0', SIZE));
  expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
  expect(await cacheFiles()).toContain(INSTALLER);
}

describe('an installer download that stops or crawls is given up on the clock', () => {
  it('a feed that never answers the installer request', async () => {
    const { checked, pending } = await heldDownload('silent');

    await checked.clock.advance(PACE_WINDOW_MS - 1);
    expect(checked.service.state().status).toBe('downloading');
    await checked.clock.advance(1);

    await expectGivenUp(checked, pending);
  });

  it('a feed that sends the headers and then nothing', async () => {
    const { checked, pending } = await heldDownload('stall');

    await checked.clock.advance(PACE_WINDOW_MS);

    await expectGivenUp(checked, pending);
  });

  it('a feed that trickles: the floor in one minute, then a byte short of it', async () => {
    const { bytes, checked, pending } = await heldDownload('stall');
    await send(bytes.subarray(0, MIN_BYTES_PER_WINDOW));
    await checked.clock.advance(PACE_WINDOW_MS);
    expect(checked.service.state().status).toBe('downloading');

    await send(bytes.subarray(MIN_BYTES_PER_WINDOW, 2 * MIN_BYTES_PER_WINDOW - 1));
    await checked.clock.advance(PACE_WINDOW_MS);

    await expectGivenUp(checked, pending);
  });

  it('a slow download at the floor, window after window, arrives and is verified', async () => {
    const { bytes, checked, pending } = await heldDownload('stall');
    for (let start = 0; start < bytes.length; start += MIN_BYTES_PER_WINDOW) {
      await send(bytes.subarray(start, start + MIN_BYTES_PER_WINDOW));
      // The last piece is under the floor: it is all that was left, and the file is complete.
      if (start + MIN_BYTES_PER_WINDOW < bytes.length) await checked.clock.advance(PACE_WINDOW_MS);
    }
    world().feed.held.get(PATH)?.end();

    expect(await pending).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(world().escaped).toEqual([]);
  });
});
