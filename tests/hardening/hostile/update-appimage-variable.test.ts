/**
 * `APPIMAGE` in the environment said "this copy is an AppImage: it installs updates". Pictor
 * builds no AppImage (electron-builder.yml), and the variable is inherited by whatever a program
 * run as an AppImage starts: a deb or rpm Pictor launched from an AppImage terminal or launcher
 * was taken for one that installs. electron-updater then picks its DebUpdater (it installs as
 * root through pkexec or sudo, what Pictor leaves to the package manager), and a copy with no
 * package type its AppImageUpdater, which replaces the file `APPIMAGE` names: another program's.
 * Now only the package type electron-builder wrote beside the app decides, and an updater whose
 * installer's own version Pictor cannot read (installer-version.ts reads NSIS and Squirrel.Mac's)
 * keeps no file whatever it is told.
 *
 * The app's own factory (createAppUpdater) over app-update.yml and package-type as
 * electron-builder writes them, on a real loopback feed; electron-updater as shipped.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DebUpdater } from 'electron-updater';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createAppUpdater } from '../../../electron/adapters/electron-updater';
import { UpdateService } from '../../../electron/app/updates/update-service';
import { silentLogger } from '../../../electron/ports/logger';
import { ManualClock } from '../../fakes/manual-clock';
import { setEnvForTest } from '../../support/undone-after-test';
import { channelFile } from '../../integration/updates/update-feed';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';

const world = useUpdaterWorld();
const DEB = 'pictor_0.2.0_amd64.deb';

/** Another program's AppImage, whose path the environment carries into Pictor. */
let otherAppImage = '';

beforeEach(async () => {
  const bytes = randomBytes(20_000);
  serveChannelFile(world().feed, { body: channelFile({ version: '0.2.0', file: DEB, bytes }) });
  world().feed.files.set(`/${DEB}`, { body: bytes });
  otherAppImage = join(world().dir, 'Other-Editor-x86_64.AppImage');
  await writeFile(otherAppImage, 'the other program');
  setEnvForTest('APPIMAGE', otherAppImage);
});

/** The files electron-builder leaves beside a Linux app: the feed, and the package type if any. */
async function installed(packageType: string | null): Promise<void> {
  const resources = join(world().dir, 'resources');
  await mkdir(resources, { recursive: true });
  await writeFile(
    join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${world().feed.url}\nupdaterCacheDirName: pictor-updater\n`,
  );
  if (packageType !== null) await writeFile(join(resources, 'package-type'), packageType);
  onTestFinished(() => void Reflect.deleteProperty(process, 'resourcesPath'));
  Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true });
}

const cached = (): Promise<string[]> =>
  readdir(join(world().dir, 'cache'), { recursive: true }).catch(() => []);

describe('an inherited APPIMAGE variable does not make Pictor install', () => {
  it('a deb started with it only announces, as a deb does', async () => {
    await installed('deb');
    const clock = new ManualClock();
    const updater = createAppUpdater(world().electron.app, silentLogger, { fetch, clock });
    expect(updater.capability).toEqual({ kind: 'notify' });
    const service = new UpdateService({
      updater,
      clock,
      logger: silentLogger,
      mode: () => 'download',
    });

    expect(await service.checkNow()).toMatchObject({
      status: 'available',
      version: '0.2.0',
      canInstall: false,
    });
    expect(world().feed.paths()).not.toContain(`/${DEB}`);
    expect(await cached()).toEqual([]);
    expect(world().electron.app.listenerCount('quit')).toBe(0);
  });

  it('a copy with no package type has no updates, and the file it names is left alone', async () => {
    await installed(null);
    const clock = new ManualClock();
    const updater = createAppUpdater(world().electron.app, silentLogger, { fetch, clock });

    expect(updater.capability).toEqual({ kind: 'none', reason: 'not_installed' });
    expect(await readFile(otherAppImage, 'utf8')).toBe('the other program');
  });

  it('an updater whose installer Pictor cannot read downloads nothing, even told it installs', async () => {
    const checked = rig(await updaterFor(world(), new DebUpdater()), { kind: 'install' });

    expect(await checked.service.checkNow()).toMatchObject({
      status: 'error',
      problem: 'installer_version',
      version: '0.2.0',
    });
    expect(world().feed.paths()).not.toContain(`/${DEB}`);
    expect(await cached()).not.toContainEqual(expect.stringContaining('.deb'));
    expect(world().electron.app.listenerCount('quit')).toBe(0);
    expect(() => checked.service.restart()).toThrow();
    expect(world().escaped).toEqual([]);
  });
});
