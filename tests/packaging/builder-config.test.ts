/**
 * What electron-builder.yml promises each OS, read from the file itself: Linux packages that start
 * with Chromium's sandbox on (no AppImage), the deb's and rpm's runtime libraries, and the fuses
 * that keep the binary from running arbitrary scripts (the `pictor` command is the app's own
 * CLI mode, not ELECTRON_RUN_AS_NODE).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface BuilderConfig {
  linux: { target: (string | { target: string })[]; executableName: string };
  deb: { depends: string[] };
  rpm: { depends: string[] };
  electronFuses: Record<string, boolean>;
}

const config = parse(
  readFileSync(fileURLToPath(new URL('../../electron-builder.yml', import.meta.url)), 'utf8'),
) as BuilderConfig;
const targets = config.linux.target.map((entry) =>
  typeof entry === 'string' ? entry : entry.target,
);

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
});
