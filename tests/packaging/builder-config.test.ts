/**
 * What electron-builder.yml promises each OS, read from the file itself: Linux packages that start
 * with Chromium's sandbox on (no AppImage), the deb's and rpm's runtime libraries, and the fuses
 * that keep the binary from running arbitrary scripts (the `pictor` command is the app's own
 * CLI mode, not ELECTRON_RUN_AS_NODE), and no update feed baked in (npm run dist adds one from
 * PICTOR_UPDATE_FEED: electron/build/release-feed.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { updaterCapability } from '../../electron/app/updates/update-capability';
import { REPO_ROOT } from '../support/source-files';

type Targets = (string | { target: string })[];

interface BuilderConfig {
  linux: { target: Targets; executableName: string };
  mac: { target: Targets };
  win: { target: Targets };
  publish?: unknown;
  deb: { depends: string[] };
  rpm: { depends: string[] };
  electronFuses: Record<string, boolean>;
}

const config = parse(
  readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8'),
) as BuilderConfig;
const names = (list: Targets): string[] =>
  list.map((entry) => (typeof entry === 'string' ? entry : entry.target));
const targets = names(config.linux.target);

describe('electron-builder.yml', () => {
  it('builds Linux packages that keep the sandbox on: deb and rpm, no AppImage', () => {
    expect(targets.sort()).toEqual(['deb', 'rpm']);
  });

  it('names the libraries Electron needs at run time in the deb and the rpm', () => {
    for (const library of ['libgbm1', 'libasound2 | libasound2t64', 'libsecret-1-0', 'libnss3']) {
      expect(config.deb.depends).toContain(library);
    }
    for (const library of ['mesa-libgbm', 'alsa-lib', 'libsecret', 'nss']) {
      expect(config.rpm.depends).toContain(library);
    }
  });

  it('installs the binary as pictor (the deb links /usr/bin/pictor) with runAsNode off', () => {
    expect(config.linux.executableName).toBe('pictor');
    expect(config.electronFuses['runAsNode']).toBe(false);
    expect(config.electronFuses['enableNodeOptionsEnvironmentVariable']).toBe(false);
    expect(config.electronFuses['enableNodeCliInspectArguments']).toBe(false);
  });

  it('carries no update feed: npm run dist adds one only from PICTOR_UPDATE_FEED', () => {
    // null: left out, electron-builder would take the checkout's GitHub origin (update-feed.test.ts).
    expect(config.publish).toBeNull();
    expect(JSON.stringify(config)).not.toContain('pictor.invalid/updates');
  });

  it('names no Mac arch, so each Mac builds its own (or what --x64/--arm64 ask for)', () => {
    expect(config.mac.target).toEqual(['dmg', 'zip']);
  });

  it('builds what electron-updater installs from: NSIS on Windows, a zip beside the dmg on macOS', () => {
    expect(names(config.win.target)).toContain('nsis');
    expect(names(config.mac.target)).toEqual(expect.arrayContaining(['zip', 'dmg']));
  });

  it('has each Linux package announce updates only (no AppImage, no install as root)', () => {
    for (const target of targets) {
      expect(
        updaterCapability({
          packaged: true,
          platform: 'linux',
          hasUpdateConfig: true,
          linuxPackageType: target,
        }),
      ).toEqual({ kind: 'notify' });
    }
  });
});
