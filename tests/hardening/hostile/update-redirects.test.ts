/**
 * A hostile release feed on loopback redirects the channel file or the installer download away
 * from itself: to another port, another host name for the same address, another scheme, a file on
 * disk, an address on the user's network. A channel file from elsewhere would let another server
 * name the installer and its sha512; electron-updater's executor would follow the installer's
 * redirects anywhere, so a feed could make the app ask any address of its choosing. Each hop
 * elsewhere is refused with the "update information" sentence and gets no request; a hop inside
 * the feed's origin is followed, a few at most. Through the whole path: the update service, the
 * adapter, NsisUpdater with Pictor's provider.
 */
import { NsisUpdater } from 'electron-updater';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FEED_REDIRECTS, channelFileName } from '../../../electron/app/updates/release-feed';
import { shell } from '../../../renderer/i18n/en/shell';
import { channelFile, UpdateFeed } from '../../integration/updates/update-feed';
import { installerBytes } from '../../integration/updates/installer-files';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';

const world = useUpdaterWorld();
const INSTALLER = 'Pictor-Setup-0.2.0.exe';
const CHANNEL = channelFileName(process.platform, process.arch);

/** A second server: whatever a redirect off the feed's origin would reach. */
let elsewhere: UpdateFeed;
beforeEach(async () => {
  elsewhere = new UpdateFeed();
  await elsewhere.start();
});
afterEach(async () => {
  await elsewhere.stop();
});

/** A valid release whose installer's path answers 302 to `location`; the installer served there. */
function releaseRedirectedTo(location: string, servedAt: string): void {
  const bytes = installerBytes('0.2.0', 40_000);
  serveChannelFile(world().feed, {
    body: channelFile({ version: '0.2.0', file: INSTALLER, bytes }),
  });
  world().feed.files.set(`/${INSTALLER}`, { status: 302, headers: { location }, body: '' });
  world().feed.files.set(servedAt, { body: bytes });
  elsewhere.files.set(servedAt, { body: bytes });
}

async function downloadOnce() {
  const checked = rig(await updaterFor(world(), new NsisUpdater()));
  const state = await checked.service.checkNow();
  // Let anything left running settle before counting what escaped.
  await new Promise((resolve) => setImmediate(resolve));
  return { state, checked };
}

const port = (): string => new URL(elsewhere.url).port;
const feedPort = (): string => new URL(world().feed.url).port;

/** [where the hop goes, the Location header for a file of that name] */
function awayFrom(): [string, (name: string) => string][] {
  return [
    ['another port', (name) => `http://127.0.0.1:${port()}/x/${name}`],
    ['another name for the same address', (name) => `http://localhost:${feedPort()}/x/${name}`],
    ['the same host and port over https', (name) => `https://127.0.0.1:${feedPort()}/x/${name}`],
    ['a protocol-relative address', (name) => `//localhost:${port()}/x/${name}`],
    ['a file on this computer', () => 'file:///etc/passwd'],
    ['an address on the user’s network', (name) => `http://192.168.0.1/x/${name}`],
    ['credentials in the address', (name) => `http://user:pw@127.0.0.1:${port()}/x/${name}`],
  ];
}

describe('the channel file is read from the feed’s origin only', () => {
  /** The channel file's path answers 302 to `location`; a valid release served there. */
  function channelRedirectedTo(location: string): void {
    const bytes = installerBytes('0.2.0', 40_000);
    const release = channelFile({ version: '0.2.0', file: INSTALLER, bytes });
    serveChannelFile(world().feed, { status: 302, headers: { location }, body: '' });
    for (const server of [world().feed, elsewhere]) {
      server.files.set(`/x/${CHANNEL}`, { body: release });
      server.files.set(`/${INSTALLER}`, { body: bytes });
    }
  }

  it.each(awayFrom())('a redirect to %s is refused and gets no request', async (_name, to) => {
    channelRedirectedTo(to(CHANNEL));

    const { state, checked } = await downloadOnce();

    expect(state).toMatchObject({ status: 'error', problem: 'feed_invalid' });
    expect(state.version).toBeUndefined();
    expect(checked.warnings.join('\n')).toContain('redirected its channel file');
    expect(world().feed.paths()).toEqual([`/${CHANNEL}`]);
    expect(elsewhere.requests).toEqual([]);
    expect(world().escaped).toEqual([]);
  });

  it('a redirect inside the feed’s origin is followed', async () => {
    channelRedirectedTo(`/x/${CHANNEL}`);

    const { state } = await downloadOnce();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(world().feed.paths()).toEqual([`/${CHANNEL}`, `/x/${CHANNEL}`, `/${INSTALLER}`]);
  });

  it(`redirects inside the origin are followed ${MAX_FEED_REDIRECTS} times at most`, async () => {
    channelRedirectedTo(`/${CHANNEL}`);

    const { state, checked } = await downloadOnce();

    expect(state).toMatchObject({ status: 'error', problem: 'feed_invalid' });
    expect(checked.warnings.join('\n')).toContain(`more than ${MAX_FEED_REDIRECTS} addresses`);
    expect(world().feed.paths()).toEqual(Array(MAX_FEED_REDIRECTS + 1).fill(`/${CHANNEL}`));
  });
});

describe('the installer is downloaded from the feed’s origin only', () => {
  const away = awayFrom().map(([name, to]): [string, () => string] => [name, () => to(INSTALLER)]);

  it.each(away)('a redirect to %s is refused and gets no request', async (_name, location) => {
    releaseRedirectedTo(location(), `/x/${INSTALLER}`);

    const { state, checked } = await downloadOnce();

    expect(state).toMatchObject({ status: 'error', problem: 'feed_invalid', version: '0.2.0' });
    expect(shell['update.problem.feed_invalid'].match(/[.!?](\s|$)/g)).toHaveLength(1);
    expect(checked.warnings.join('\n')).toContain('redirected away from the update feed');
    // The feed answered its own two paths; nothing was asked anywhere else, or of the feed again.
    expect(
      world()
        .feed.paths()
        .filter((path) => !path.endsWith('.yml')),
    ).toEqual([`/${INSTALLER}`]);
    expect(elsewhere.requests).toEqual([]);
    expect(world().electron.requests.map((request) => request.path)).toEqual([`/${INSTALLER}`]);
    expect(checked.installs).not.toHaveBeenCalled();
    expect(world().escaped).toEqual([]);
  });

  it('a redirect inside the feed’s origin is followed, and the file checked as ever', async () => {
    releaseRedirectedTo(`/x/${INSTALLER}`, `/x/${INSTALLER}`);

    const { state, checked } = await downloadOnce();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(
      world()
        .feed.paths()
        .filter((path) => !path.endsWith('.yml')),
    ).toEqual([`/${INSTALLER}`, `/x/${INSTALLER}`]);
    expect(world().escaped).toEqual([]);
    checked.service.restart();
    expect(checked.installs).toHaveBeenCalledOnce();
  });

  it('after a refused hop the service checks again and takes a release served in place', async () => {
    releaseRedirectedTo(`http://127.0.0.1:${port()}/x/${INSTALLER}`, `/x/${INSTALLER}`);
    const { state, checked } = await downloadOnce();
    expect(state.problem).toBe('feed_invalid');

    releaseRedirectedTo(`/x/${INSTALLER}`, `/x/${INSTALLER}`);
    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(elsewhere.requests).toEqual([]);
  });
});
