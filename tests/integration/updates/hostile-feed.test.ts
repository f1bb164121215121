/**
 * A hostile update feed on loopback, through the whole path the app takes: the update service,
 * the adapter, electron-updater's NsisUpdater with Pictor's checked provider. Each feed is refused
 * with one of the page's sentences; nothing is downloaded; no rejection or exception escapes; the
 * service checks again afterwards. Bounded work is shown by construction: the alias bomb would
 * expand to 9^12 values, the endless channel file never ends, the stalled one never sends a byte,
 * so a check that returns at all did not expand, read or wait without a limit.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  CHANNEL_FILE_TIMEOUT_MS,
  MAX_CHANNEL_FILE_BYTES,
  channelFileName,
} from '../../../electron/app/updates/release-feed';
import type { UpdateState } from '../../../shared/domain/update-state';
import { shell } from '../../../renderer/i18n/en/shell';
import { channelFile } from './update-feed';
import { installerBytes } from './installer-files';
import { installFakeElectron, FakeApp } from './fake-electron';
import { rig, serveChannelFile, updaterFor, useUpdaterWorld, type Rig } from './updater-rig';
import type { ServedFile } from './update-feed';
import { UNTIL } from '../../support/waits';

const world = useUpdaterWorld();
const INSTALLER = 'Pictor-Setup-0.2.0.exe';
const CHANNEL_PATH = `/${channelFileName(process.platform, process.arch)}`;

/** The size of the installer every valid release below declares. */
const INSTALLER_SIZE = 40_000;

/** A valid channel file for 0.2.0 and its installer, served; the YAML's lines for mutating. */
function validRelease(version = '0.2.0'): string[] {
  const bytes = installerBytes(version, INSTALLER_SIZE);
  world().feed.files.set(`/${INSTALLER}`, { body: bytes });
  return channelFile({ version, file: INSTALLER, bytes }).trimEnd().split('\n');
}

async function checkOnce(): Promise<{ state: UpdateState; rig: Rig }> {
  const checked = rig(await updaterFor(world(), new NsisUpdater()));
  return { state: await checked.service.checkNow(), rig: checked };
}

/** Refused as `problem`, with one sentence; nothing downloaded or installed; nothing escaped. */
async function expectRefused(state: UpdateState, checked: Rig, problem: string): Promise<void> {
  // Let anything left running settle before counting what escaped.
  await new Promise((resolve) => setImmediate(resolve));
  expect(state).toMatchObject({ status: 'error', problem });
  const sentence = shell[`update.problem.${problem}` as keyof typeof shell];
  expect(sentence.match(/[.!?](\s|$)/g)).toHaveLength(1);
  expect(
    world()
      .feed.paths()
      .filter((path) => !path.endsWith('.yml')),
  ).toEqual([]);
  expect(checked.installs).not.toHaveBeenCalled();
  expect(world().escaped).toEqual([]);
  expect(checked.warnings.join('\n')).toContain(problem);
}

describe('a hostile channel file is refused, and the service keeps working', () => {
  it('an alias bomb (anchors nine wide, twelve deep) is refused before anything is expanded', async () => {
    const levels = 'abcdefghijkl'.split('');
    const bomb = [
      `${levels[0]}: &${levels[0]} ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`,
      ...levels
        .slice(1)
        .map(
          (name, index) => `${name}: &${name} [${Array(9).fill(`*${levels[index]}`).join(',')}]`,
        ),
      ...validRelease().map((line) => (line === `path: ${INSTALLER}` ? `path: *l` : line)),
    ].join('\n');
    serveChannelFile(world().feed, { body: bomb });

    const { state, rig: checked } = await checkOnce();

    await expectRefused(state, checked, 'feed_invalid');
    expect(checked.warnings.join('\n')).toMatch(/anchor|alias/);
    world().feed.files.clear();
    serveChannelFile(world().feed, { body: `${validRelease().join('\n')}\n` });
    expect((await checked.service.checkNow()).status).toBe('ready');
  });

  it('an endless channel file is cut off past the size cap, not read into memory', async () => {
    const line = `# ${'x'.repeat(16 * 1024)}\n`;
    serveChannelFile(world().feed, {
      body: `${validRelease().join('\n')}\n${line}`,
      mode: 'endless',
    });

    const { state, rig: checked } = await checkOnce();

    await expectRefused(state, checked, 'feed_invalid');
    expect(checked.warnings.join('\n')).toContain(`larger than ${MAX_CHANNEL_FILE_BYTES} bytes`);
    // The client closed the response itself: nothing ends an endless body but a reader's limit.
    await world().feed.whenAbandoned(CHANNEL_PATH);
    expect(world().feed.abandoned.map((entry) => entry.path)).toEqual([CHANNEL_PATH]);
  });

  it('a channel file that never arrives is given up at the deadline, on the clock', async () => {
    serveChannelFile(world().feed, { body: '', mode: 'stall' });
    const checked = rig(await updaterFor(world(), new NsisUpdater()));

    const pending = checked.service.checkNow();
    await world().feed.whenRequested(CHANNEL_PATH);
    await checked.clock.advance(CHANNEL_FILE_TIMEOUT_MS - 1);
    expect(checked.service.state().status).toBe('checking');
    await checked.clock.advance(1);

    await expectRefused(await pending, checked, 'offline');
    await world().feed.whenAbandoned(CHANNEL_PATH);
    expect(world().feed.abandoned.map((entry) => entry.path)).toEqual([CHANNEL_PATH]);
  });

  it('a prerelease is not offered to a stable version', async () => {
    serveChannelFile(world().feed, { body: validRelease('0.2.0-beta.1').join('\n') });

    const { state, rig: checked } = await checkOnce();

    await expectRefused(state, checked, 'prerelease');
    expect(state.version).toBeUndefined();
  });

  it('a prerelease is offered to a prerelease', async () => {
    // In place of the world's fake until the test ends.
    installFakeElectron(new FakeApp('0.1.0-beta.1', join(world().dir, 'user-data')));
    serveChannelFile(world().feed, { body: validRelease('0.2.0-beta.1').join('\n') });
    const { state } = await checkOnce();
    expect(state).toMatchObject({ status: 'ready', version: '0.2.0-beta.1' });
  });

  it('never asks for a blockmap, however large one is on offer', async () => {
    serveChannelFile(world().feed, { body: validRelease().join('\n') });
    world().feed.files.set(`/${INSTALLER}.blockmap`, { body: randomBytes(4_700_000) });

    const { state } = await checkOnce();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(world().feed.paths()).toEqual([CHANNEL_PATH, `/${INSTALLER}`]);
  });
});

describe('a channel file with a field out of place is refused', () => {
  const hex = 'ab'.repeat(64);
  /** [what is wrong, the line replaced (by its key), the line put instead ('' removes it)] */
  const cases: [string, string, string][] = [
    ['a version that YAML reads as a number', 'version', 'version: 1.0'],
    ['a version that is not semver', 'version', 'version: v0.2.0'],
    ['a version of 70 characters', 'version', `version: 0.2.0-${'a'.repeat(64)}`],
    ['no version', 'version', ''],
    ['no files', 'files', 'files: []\nfoo:'],
    ['an installer named by a path', '  - url', '  - url: ../../evil.exe'],
    ['an installer on another host', '  - url', '  - url: https://evil.example/setup.exe'],
    ['an absolute installer path', '  - url', '  - url: /etc/passwd'],
    ['a sha512 that is not base64 SHA-512', '    sha512', '    sha512: abc'],
    ['a sha512 in hex', '    sha512', `    sha512: ${hex}`],
    ['no size', '    size', ''],
    ['a negative size', '    size', '    size: -1'],
    ['a size as text', '    size', "    size: '40000'"],
    ['a size of a terabyte', '    size', '    size: 1000000000000'],
    ['a release date that is not one', 'releaseDate', 'releaseDate: yesterday'],
    ['no release date', 'releaseDate', ''],
    ['a YAML tag', 'releaseDate', "releaseDate: !!str '2026-11-20T10:00:00.000Z'"],
    ['a second version key', 'path', 'version: 9.9.9'],
    ['a second document', 'path', '---\nversion: 9.9.9'],
    ['flow collections nested deep', 'path', 'releaseNotes: [[[[1]]]]'],
  ];

  it.each(cases)('%s', async (_name, key, replacement) => {
    const valid = validRelease();
    const lines = valid.map((line) => (line.startsWith(`${key}:`) ? replacement : line));
    expect(lines).not.toEqual(valid);
    serveChannelFile(world().feed, { body: lines.filter((line) => line !== '').join('\n') });

    const { state, rig: checked } = await checkOnce();

    await expectRefused(state, checked, 'feed_invalid');
  });

  it('the same file without the fault is taken (the cases above differ only in it)', async () => {
    serveChannelFile(world().feed, { body: validRelease().join('\n') });
    const { state } = await checkOnce();
    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' });
  });
});

describe('an installer larger than the feed declares is cut off at the declared size', () => {
  /** One read from a socket: what may arrive before the reader sees the size is passed. */
  const ONE_CHUNK = 64 * 1024;
  /** The response's status line and headers, read from the same socket. */
  const HEADERS = 1024;
  /**
   * The server's own stop, so that code reading without a limit ends the test with a
   * checksum mismatch instead of filling the disk: far past the size.
   */
  const CEILING = 8 * 1024 * 1024;

  /** Every file under electron-updater's cache (XDG_CACHE_HOME points into the test folder). */
  async function cacheFiles(): Promise<string[]> {
    const entries = await readdir(join(world().dir, 'cache'), {
      recursive: true,
      withFileTypes: true,
    }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  }

  /** Serves a valid release, then `installer` in place of its installer; the valid one back. */
  function releaseWithInstaller(installer: ServedFile): () => void {
    serveChannelFile(world().feed, { body: validRelease().join('\n') });
    const valid = world().feed.files.get(`/${INSTALLER}`);
    world().feed.files.set(`/${INSTALLER}`, installer);
    return () => {
      if (valid) world().feed.files.set(`/${INSTALLER}`, valid);
    };
  }

  async function expectCutOff(restore: () => void): Promise<void> {
    const { state, rig: checked } = await checkOnce();
    // Let anything left running settle before counting what escaped.
    await new Promise((resolve) => setImmediate(resolve));

    expect(state).toMatchObject({ status: 'error', problem: 'oversize', version: '0.2.0' });
    expect(shell['update.problem.oversize'].match(/[.!?](\s|$)/g)).toHaveLength(1);
    const installer = world().electron.requests.filter(({ path }) => path === `/${INSTALLER}`);
    expect(installer).toHaveLength(1);
    const socket = installer[0]?.socket;
    expect(socket?.destroyed).toBe(true);
    expect(socket?.bytesRead).toBeLessThanOrEqual(INSTALLER_SIZE + ONE_CHUNK + HEADERS);
    // electron-updater empties its cache after the refused download ends, which may come a few
    // turns after the state that reports it: wait for that condition, not for a turn.
    await vi.waitFor(async () => expect(await cacheFiles()).toEqual([]), UNTIL);
    expect(checked.installs).not.toHaveBeenCalled();
    expect(world().escaped).toEqual([]);
    expect(checked.warnings.join('\n')).toContain('oversize');

    restore();
    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(await cacheFiles()).toContain(INSTALLER);
  }

  it('an installer that never ends is cut off once it passes the size', async () => {
    const restore = releaseWithInstaller({
      body: randomBytes(16 * 1024),
      mode: 'endless',
      upTo: CEILING,
    });
    await expectCutOff(restore);
  });

  it('an installer whose Content-Length exceeds the size is refused before its body', async () => {
    const restore = releaseWithInstaller({ body: randomBytes(CEILING) });
    await expectCutOff(restore);
  });

  /**
   * The first open of a file whose name has `part`, held until `release()`: the thread pool slow
   * to run it, as on a loaded machine. `opened` resolves once the real open has answered.
   * electron-updater's file stream opens through `fs.open`, looked up when it opens.
   */
  function holdOpen(part: string): { release(): void; opened: Promise<void> } {
    const open = fs.open;
    let release = (): void => undefined;
    let answered = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const opened = new Promise<void>((resolve) => (answered = resolve));
    let held = false;
    const spy = vi.spyOn(fs, 'open');
    onTestFinished(() => spy.mockRestore());
    spy.mockImplementation(((path: fs.PathLike, ...rest: unknown[]) => {
      const callback = rest.pop() as (...answer: unknown[]) => void;
      const go = () =>
        (open as (...args: unknown[]) => void)(path, ...rest, (...answer: unknown[]) => {
          callback(...answer);
          if (held) answered();
        });
      if (held || !String(path).includes(part)) return go();
      held = true;
      void released.then(go);
    }) as typeof fs.open);
    return { release: () => release(), opened };
  }

  /** `count` turns of the event loop: each lets a waiting callback of the loop's run. */
  async function turns(count: number): Promise<void> {
    for (let turn = 0; turn < count; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Loses the connection after the installer's headers and a few bytes of its body. */
  async function loseConnection(): Promise<void> {
    const response = await vi.waitFor(() => {
      const held = world().feed.held.get(`/${INSTALLER}`);
      expect(held).toBeDefined();
      return held!;
    }, UNTIL);
    response.write(randomBytes(1_000));
    response.socket?.destroy();
  }

  it.each([
    {
      how: 'announces a larger Content-Length',
      installer: { body: randomBytes(CEILING) },
      then: async () => undefined,
      problem: 'oversize',
    },
    {
      how: 'loses its connection mid-body',
      installer: { body: '', mode: 'stall' },
      then: loseConnection,
      problem: 'offline',
    },
  ] as const)(
    'an installer that $how while its cache file is still opening: the failure waits for the file, and nothing is left in the cache',
    async ({ installer, then, problem }) => {
      const held = holdOpen('temp-');
      const restore = releaseWithInstaller(installer);
      const checking = checkOnce();
      await then();
      // The download has failed; the file's open is still held.
      await vi.waitFor(() => {
        const request = world().electron.requests.find(({ path }) => path === `/${INSTALLER}`);
        expect(request?.socket?.destroyed).toBe(true);
      }, UNTIL);
      // Far more turns than electron-updater takes to reject and empty its cache (a few
      // thread-pool trips): a check that reported while the file was opening has reported now.
      const reportedFirst = await Promise.race([
        checking.then(() => true),
        turns(2_000).then(() => false),
      ]);
      held.release();
      await held.opened;
      const { state } = await checking;

      expect(reportedFirst).toBe(false);
      expect(state).toMatchObject({ status: 'error', problem, version: '0.2.0' });
      await vi.waitFor(async () => expect(await cacheFiles()).toEqual([]), UNTIL);
      restore();
      expect(await checkOnce()).toMatchObject({ state: { status: 'ready', version: '0.2.0' } });
    },
  );
});
