import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adviceFor,
  binaryInDist,
  downloadCause,
  findElectron,
} from '../../../electron/build/check-electron';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

const PACKAGE = '/repo/node_modules/electron';

function lookup(
  env: Record<string, string>,
  present: string[],
  platform: NodeJS.Platform = 'linux',
) {
  return { env, platform, packageDir: PACKAGE, exists: (path: string) => present.includes(path) };
}

describe('npm start’s Electron pre-flight', () => {
  it('finds the binary the electron package downloaded, per platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const binary = `${PACKAGE}/dist/${binaryInDist(platform)}`;
      expect(findElectron(lookup({}, [binary], platform))).toEqual({ ok: true, binary });
    }
  });

  it('uses ELECTRON_OVERRIDE_DIST_PATH and says so when it holds no binary', () => {
    const env = { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron-45' };
    expect(findElectron(lookup(env, ['/opt/electron-45/electron']))).toEqual({
      ok: true,
      binary: '/opt/electron-45/electron',
    });
    const missing = findElectron(lookup(env, [`${PACKAGE}/dist/electron`]));
    expect(missing).toMatchObject({ ok: false, mayDownload: false });
    expect(!missing.ok && missing.problem).toMatch(
      /ELECTRON_OVERRIDE_DIST_PATH is set to \/opt\/electron-45/,
    );
  });

  it('tries the download only when nothing forbids it', () => {
    expect(findElectron(lookup({}, []))).toMatchObject({ ok: false, mayDownload: true });
    const skipped = findElectron(lookup({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, []));
    expect(skipped).toMatchObject({ ok: false, mayDownload: false });
    expect(!skipped.ok && skipped.problem).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD is set/);
  });

  it('says what happened and what to do, never "npx install-electron"', () => {
    const text = adviceFor(
      'The Electron binary has not been downloaded yet.',
      'getaddrinfo ENOTFOUND github.com',
    );
    expect(text).toContain('The download failed with: getaddrinfo ENOTFOUND github.com');
    for (const advice of [
      'HTTPS_PROXY',
      'ELECTRON_MIRROR',
      'ELECTRON_OVERRIDE_DIST_PATH',
      'ELECTRON_SKIP_BINARY_DOWNLOAD',
    ]) {
      expect(text).toContain(advice);
    }
    expect(text).not.toContain('install-electron');
  });
});

describe('the download’s cause', () => {
  it('keeps the error and its cause, not the stack', () => {
    const output = `TypeError: fetch failed
    at node:internal/deps/undici/undici:14976:13
    at async downloadArtifact (file:///x/index.js:154:12) {
  [cause]: Error: getaddrinfo ENOTFOUND github.com
      at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:120:26)
}`;
    expect(downloadCause(output)).toBe(
      'TypeError: fetch failed [cause]: Error: getaddrinfo ENOTFOUND github.com',
    );
    expect(downloadCause('\n  at x\n')).toBeNull();
  });
});

/** `npm start`'s steps, in order, as package.json runs them. */
function startSteps(): string[] {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return (manifest.scripts['start'] ?? '').split('&&').map((step) => step.trim());
}

describe('npm start', () => {
  it('checks for the Electron binary before it builds anything', () => {
    const steps = startSteps();
    const check = steps.findIndex((step) => step.includes('electron/build/check-electron.ts'));
    const build = steps.findIndex((step) => /\bnpm run build\b/.test(step));
    expect(check, steps.join(' && ')).toBe(0);
    expect(build).toBeGreaterThan(check);
    // The check reads no build output: Node's own modules only.
    const source = readFileSync(join(REPO_ROOT, 'electron/build/check-electron.ts'), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((found) => found[1]);
    expect(imports.every((name) => name?.startsWith('node:'))).toBe(true);
  });

  it('its first step, run as package.json says, says a missing binary at once', () => {
    const [first = ''] = startSteps();
    // Never a build in the working tree: only the check is run.
    expect(first).toMatch(/^tsx electron\/build\/check-electron\.ts$/);
    const empty = tempFolderSync('no-electron');
    try {
      const run = spawnSync(first, {
        shell: true,
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          PATH: `${join(REPO_ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
          ELECTRON_OVERRIDE_DIST_PATH: empty,
        },
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain(
        `Pictor cannot start: ELECTRON_OVERRIDE_DIST_PATH is set to ${empty}`,
      );
      expect(run.stdout).not.toMatch(/vite|build/i);
    } finally {
      removeFolderSync(empty);
    }
  });
});
