/**
 * A hostile release feed on loopback names its installer with anything but a plain file name:
 * path parts in every spelling (separators of both OSes, dot segments, percent-encoded ones, a
 * drive, a share, look-alike slashes), an escape or bidi control, a hidden file, and names Windows
 * does not keep as written (a device such as `NUL.exe`, a trailing dot or space), where the file
 * electron-updater writes, renames and runs would not be the one named. Each is refused as update
 * information Pictor cannot use, through the whole path (the update service, the adapter,
 * NsisUpdater with Pictor's provider), nothing is downloaded; and no such name ever becomes the
 * link a copy that cannot install opens in the browser.
 */
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it } from 'vitest';
import { releaseFileLink } from '../../../electron/app/updates/download-link';
import { channelFile } from '../../integration/updates/update-feed';
import { installerBytes } from '../../integration/updates/installer-files';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';

const world = useUpdaterWorld();
const FEED = 'https://updates.pictor.test/stable/';

/** [what it is, the name] */
const names: [string, string][] = [
  ['a parent folder', '../Pictor-Setup-0.2.0.exe'],
  ['a folder', 'x/Pictor-Setup-0.2.0.exe'],
  ['a Windows folder', 'x\\Pictor-Setup-0.2.0.exe'],
  ['a percent-encoded slash', '..%2fPictor-Setup-0.2.0.exe'],
  ['percent-encoded dots', '%2e%2e/Pictor-Setup-0.2.0.exe'],
  ['a drive', 'C:Pictor-Setup-0.2.0.exe'],
  ['a share', '\\\\host\\share\\Pictor-Setup-0.2.0.exe'],
  ['a division slash', '..\u2215Pictor-Setup-0.2.0.exe'],
  ['a fullwidth slash', '..\uff0fPictor-Setup-0.2.0.exe'],
  ['a right-to-left override', 'Pictor-Setup-\u202eexe.scr'],
  ['a NUL byte', 'Pictor-Setup-0.2.0.exe\u0000.txt'],
  ['a hidden file', '.Pictor-Setup-0.2.0.exe'],
  ['a query', 'Pictor-Setup-0.2.0.exe?x=1'],
  ['the console device', 'CON.exe'],
  ['the null device in lower case', 'nul.exe'],
  ['a serial port', 'COM1.exe'],
  ['a printer port with two extensions', 'lpt9.tar.exe'],
  ['a device with a space before the dot', 'AUX .exe'],
  ['a device alone', 'PRN'],
  ['a trailing dot', 'Pictor-Setup-0.2.0.exe.'],
  ['a trailing space', 'Pictor-Setup-0.2.0.exe '],
];

describe('an installer that is not a plain file name is refused', () => {
  it.each(names)('%s', async (_what, name) => {
    const bytes = installerBytes('0.2.0', 40_000);
    const lines = channelFile({ version: '0.2.0', file: 'placeholder.exe', bytes })
      .split('\n')
      .map((line) => line.replace('placeholder.exe', JSON.stringify(name)));
    serveChannelFile(world().feed, { body: lines.join('\n') });
    world().feed.files.set(`/${name}`, { body: bytes });

    const checked = rig(await updaterFor(world(), new NsisUpdater()));
    const state = await checked.service.checkNow();
    await new Promise((resolve) => setImmediate(resolve));

    expect(state).toMatchObject({ status: 'error', problem: 'feed_invalid' });
    expect(checked.warnings.join('\n')).toContain('not a plain file name');
    expect(
      world()
        .feed.paths()
        .filter((path) => !path.endsWith('.yml')),
    ).toEqual([]);
    expect(checked.installs).not.toHaveBeenCalled();
    expect(world().escaped).toEqual([]);
    expect(releaseFileLink(FEED, name)).toBeNull();
  });

  it('the same file under a plain name is taken, and linked (the cases differ only in it)', async () => {
    const bytes = installerBytes('0.2.0', 40_000);
    const name = 'Pictor Setup 0.2.0.exe';
    serveChannelFile(world().feed, {
      body: channelFile({ version: '0.2.0', file: JSON.stringify(name), bytes }),
    });
    world().feed.files.set(`/${encodeURIComponent(name)}`, { body: bytes });
    world().feed.files.set(`/${name}`, { body: bytes });

    const checked = rig(await updaterFor(world(), new NsisUpdater()));

    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(releaseFileLink(FEED, name)).toBe(`${FEED}Pictor%20Setup%200.2.0.exe`);
  });
});
