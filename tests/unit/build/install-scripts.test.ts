/**
 * npm 11.19 runs a dependency's install scripts only where package.json's `allowScripts` allows
 * them, and ends every install with a list of those it skipped. Each package of the lockfile with
 * an install script has a decision here, and every decision is a refusal: nothing the app, its
 * build or its tests need runs at install (the electron package fetches its binary when first run,
 * `npm run ci:electron`; esbuild's own postinstall only checks and speeds up the binary its
 * platform package already holds). A dependency that gains an install script fails here until
 * someone has read the script and written the decision down.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

interface LockEntry {
  readonly hasInstallScript?: boolean;
}

const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  readonly packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  readonly allowScripts?: Record<string, unknown>;
};

/** The package names of the lockfile whose entry runs a script at install (nested ones too). */
function withInstallScripts(): string[] {
  const names = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set(names)].sort();
}

describe('install scripts', () => {
  it('the lockfile names the packages that have them (this test reads the right field)', () => {
    expect(withInstallScripts()).toContain('esbuild');
  });

  it('each has a decision in allowScripts, and each decision refuses it', () => {
    const decisions = manifest.allowScripts ?? {};
    const undecided = withInstallScripts().filter((name) => !(name in decisions));
    expect(undecided).toEqual([]);
    const allowed = Object.entries(decisions).filter(([, allow]) => allow !== false);
    expect(allowed).toEqual([]);
  });

  it('no decision names a package the lockfile no longer has an install script for', () => {
    const stale = Object.keys(manifest.allowScripts ?? {}).filter(
      (name) => !withInstallScripts().includes(name),
    );
    expect(stale).toEqual([]);
  });
});
