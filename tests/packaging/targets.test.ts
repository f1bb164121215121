/**
 * Every release target `npm run dist` builds (macOS x64 and arm64, Windows x64, Linux x64) packed
 * as a folder with a stand-in Electron of that OS (stand-in-targets.ts), and each target's own
 * file set checked: the app's bundles, no native binary of any platform and no image library
 * (images are Chromium's own codecs), every dependency resolvable inside the archive, and the
 * fuses flipped in that OS's binary.
 */
import { access, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  bareImportsOf,
  bundleClosure,
  C2PA_WASM,
  C2PA_WASMS,
  PAGE_C2PA_WASM_ENTRY,
  readBytes,
  filesUnder,
  imageLibraryFiles,
  isRuntimeProvided,
  isUnpacked,
  openAsar,
  packageNameOf,
  readText,
  resolvePackage,
  unresolvedDependencies,
  type AsarListing,
} from './asar-listing';
import { FUSE_SENTINEL } from './stand-in-electron';
import { sharedPacks } from './shared-packs';
import { RELEASE_TARGETS, resourcesDir, targetName, type Target } from './stand-in-targets';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The run's test build (global-setup.ts), which is what gets packed. */
const BUILD_ROOT = inject('pictorTestBuild');
/** electron-builder.yml's electronFuses in wire order (see package.test.ts). */
const FLIPPED_WIRE = Buffer.concat([
  Buffer.from(FUSE_SENTINEL, 'latin1'),
  Buffer.from([1, 8]),
  Buffer.from('01001100', 'latin1'),
]);
const NATIVE_BINARY = /\.(node|dylib|dll|exe)$|\.so(\.\d+)*$/;

interface PackedTarget {
  readonly target: Target;
  readonly appOut: string;
  readonly resources: string;
  readonly asar: AsarListing;
}

const packed = new Map<string, PackedTarget>();

function get(target: Target): PackedTarget {
  const found = packed.get(targetName(target));
  if (!found) throw new Error(`${targetName(target)} was not packed (see the error of beforeAll).`);
  return found;
}

/** The binary whose fuse wire electron-builder flips, per OS (@electron/fuses). */
function fusedBinary(target: Target, appOut: string): string {
  if (target.os === 'mac') {
    return path.join(
      appOut,
      'Pictor.app/Contents/Frameworks/Electron Framework.framework/Electron Framework',
    );
  }
  return path.join(appOut, target.os === 'win' ? 'Pictor.exe' : 'pictor');
}

function executable(target: Target, appOut: string): string {
  if (target.os === 'mac') return path.join(appOut, 'Pictor.app/Contents/MacOS/Pictor');
  return fusedBinary(target, appOut);
}

beforeAll(async () => {
  // Packed once for every file that reads them (shared-packs.ts).
  const packs = await sharedPacks(RELEASE_TARGETS, {
    buildRoot: BUILD_ROOT,
    packsDir: inject('pictorPacks'),
  });
  for (const target of RELEASE_TARGETS) {
    const { appOut } = packs(target);
    const resources = resourcesDir(target, appOut);
    packed.set(targetName(target), {
      target,
      appOut,
      resources,
      asar: openAsar(path.join(resources, 'app.asar')),
    });
  }
}, 400_000);

describe.each(RELEASE_TARGETS.map((target) => ({ ...target, name: targetName(target) })))(
  'the $name app',
  (target) => {
    it('carries the main bundle, the preload and the renderer', () => {
      const { asar } = get(target);
      for (const file of [
        'dist-electron/main.js',
        'dist-electron/c2pa-worker.js',
        'dist-electron/answer-worker.js',
        'dist-electron/history-worker.js',
        'dist-electron/preload.cjs',
        'dist/renderer/index.html',
        'dist-electron/c2pa-trust-anchors.pem',
      ]) {
        expect(asar.entries.has(file), file).toBe(true);
      }
    });

    it('resolves everything the main bundle imports inside the archive, but sharp', () => {
      const { asar } = get(target);
      for (const bundle of ['main.js', 'c2pa-worker.js', 'answer-worker.js', 'history-worker.js']) {
        // The bundle and every chunk of the split build it imports.
        const code = bundleClosure((file) => readText(asar, file), 'dist-electron', bundle);
        const packages = bareImportsOf(code).filter((specifier) => !isRuntimeProvided(specifier));
        const unresolved = packages.filter(
          (specifier) => resolvePackage(asar, packageNameOf(specifier), 'dist-electron') === null,
        );
        // The plain-Node CLI's engine tries sharp; in the packed app it must fail to load.
        expect(unresolved, bundle).toEqual(bundle.endsWith('main.js') ? ['sharp'] : []);
      }
      const c2paWorker = bundleClosure(
        (file) => readText(asar, file),
        'dist-electron',
        'c2pa-worker.js',
      );
      expect(bareImportsOf(c2paWorker)).toContain('@contentauth/c2pa-wasm');
      expect(unresolvedDependencies(asar)).toEqual([]);
    });

    it('carries no native binary of any platform and no image library, packed or unpacked', async () => {
      const { asar, resources } = get(target);
      const entries = [...asar.entries];
      expect(entries.filter((entry) => NATIVE_BINARY.test(entry))).toEqual([]);
      expect(imageLibraryFiles(entries)).toEqual([]);
      expect(imageLibraryFiles(await filesUnder(resources))).toEqual([]);
      // The Content Credentials verifier's WebAssembly (no image codec), read from disk.
      // Unpacked in its package (the worker thread's), packed beside the image page (the app's).
      const wasm = entries.filter((entry) => entry.endsWith('.wasm'));
      expect([...wasm].sort()).toEqual(C2PA_WASMS);
      expect(isUnpacked(asar, C2PA_WASM)).toBe(true);
      const onDisk = await readFile(path.join(resources, 'app.asar.unpacked', C2PA_WASM));
      expect(onDisk.equals(await readFile(path.join(ROOT, C2PA_WASM)))).toBe(true);
      expect(isUnpacked(asar, PAGE_C2PA_WASM_ENTRY)).toBe(false);
      expect(readBytes(asar, PAGE_C2PA_WASM_ENTRY).equals(onDisk)).toBe(true);
    });

    it('has its executable, with the fuses flipped in its binary', async () => {
      const { appOut } = get(target);
      await expect(access(executable(target, appOut))).resolves.toBeUndefined();
      expect((await readFile(fusedBinary(target, appOut))).includes(FLIPPED_WIRE)).toBe(true);
      await expect(access(path.join(get(target).resources, 'drag-icon.png'))).resolves.toBe(
        undefined,
      );
    });

    it('carries the pictor command where its installer links it, executable', async () => {
      const { appOut, resources } = get(target);
      const command = {
        linux: path.join(appOut, 'bin', 'pictor'),
        mac: path.join(resources, 'bin', 'pictor'),
        win: path.join(appOut, 'bin', 'pictor.cmd'),
      }[target.os];
      const source = {
        linux: 'resources/linux/pictor.sh',
        mac: 'resources/mac/pictor.sh',
        win: 'resources/windows/pictor.cmd',
      }[target.os];
      expect(await readFile(command, 'utf8')).toBe(await readFile(path.join(ROOT, source), 'utf8'));
      if (target.os !== 'win') expect((await stat(command)).mode & 0o111).toBe(0o111);
    });

    it('on Windows, carries bin\\pictor.cmd alone, waiting for the executable and passing its exit code', async () => {
      const bin = path.join(get(target).appOut, 'bin');
      const wrapper = path.join(bin, 'pictor.cmd');
      if (target.os !== 'win') {
        await expect(access(wrapper)).rejects.toThrow();
        return;
      }
      // Alone: on PATH, a Pictor.exe beside it would answer to "pictor" first (PATHEXT order).
      expect(await readdir(bin)).toEqual(['pictor.cmd']);
      const text = await readFile(wrapper, 'utf8');
      expect(text).toContain('\r\n"%~dp0..\\Pictor.exe" %*\r\n');
      expect(text).toContain('exit /b %ERRORLEVEL%');
      expect(text.split('\n').every((line) => line === '' || line.endsWith('\r'))).toBe(true);
    });
  },
);

describe('across targets', () => {
  it('ships React’s production build (the build ran with the release’s NODE_ENV)', () => {
    const { asar } = get(RELEASE_TARGETS[0] ?? { os: 'linux', arch: 'x64' });
    const scripts = [...asar.entries].filter((entry) =>
      /^dist\/renderer\/assets\/.*\.js$/.test(entry),
    );
    expect(scripts.length).toBeGreaterThan(0);
    // jsxDEV is the development JSX runtime; a test NODE_ENV would have bundled it.
    expect(scripts.filter((entry) => readText(asar, entry).includes('jsxDEV'))).toEqual([]);
  });

  it('every target ships the same app files (nothing in the archive depends on the OS or CPU)', () => {
    const [first, ...others] = RELEASE_TARGETS.map((target) => get(target));
    const listing = (each: PackedTarget) => [...each.asar.entries].sort();
    for (const other of others) {
      expect(listing(other), targetName(other.target)).toEqual(first ? listing(first) : []);
    }
  });
});
