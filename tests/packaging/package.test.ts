/**
 * Packs the app the way a release does (`npm run build`, then electron-builder with
 * electron-builder.yml) into an unpacked linux-x64 folder, using a stand-in Electron distribution
 * (the real one cannot be downloaded here), and checks what the asar holds. The build is the
 * run's test build (global-setup.ts), outside the working tree, packed from its own folder, once
 * for every file that reads the linux-x64 pack (shared-packs.ts; with the Windows target, in one
 * electron-builder run: pack-groups.ts).
 *
 * Nothing may come from the network: Electron comes from `electronDist`, the icons are premade
 * (no icon toolset), `npmRebuild: false` fetches no headers, and every download mirror points at a
 * closed loopback port with an empty cache, so an attempted download fails the build at once.
 */
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_C2PA_WASM } from '../../shared/image-renderer/protocol';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  bareImportsOf,
  bundleClosure,
  C2PA_PACKAGE,
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
  readJson,
  readText,
  requiresOf,
  resolvePackage,
  unresolvedDependencies,
  type AsarListing,
} from './asar-listing';
import { sharedPacks } from './shared-packs';
import { FUSE_SENTINEL } from './stand-in-electron';
import type { Target } from './stand-in-targets';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The run's test build (global-setup.ts), which is what gets packed. */
const BUILD_ROOT = inject('pictorTestBuild');
const LINUX: Target = { os: 'linux', arch: 'x64' };
const SOURCES_NEEDED = ['electron/main.ts', 'electron/preload.ts', 'renderer/index.html'];

interface Manifest {
  main: string;
  desktopName?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

interface Packed {
  appOut: string;
  asar: AsarListing;
  manifest: Manifest;
  builderLog: string;
}

let packed: Packed | undefined;

function current(): Packed {
  if (!packed) throw new Error('The app was not packed (see the error of beforeAll).');
  return packed;
}

async function missingSources(): Promise<string[]> {
  const missing: string[] = [];
  for (const file of SOURCES_NEEDED) {
    await access(path.join(ROOT, file)).catch(() => missing.push(file));
  }
  return missing;
}

beforeAll(async () => {
  const missing = await missingSources();
  if (missing.length > 0) {
    throw new Error(
      `Cannot pack the app: ${missing.join(', ')} missing. The packaging test builds the real main process, preload and renderer.`,
    );
  }
  // The packaging project's globalSetup (global-setup.ts) has run `npm run build` into BUILD_ROOT;
  // linux-x64 is packed once for every file that reads it (shared-packs.ts).
  const started = performance.now();
  const packs = await sharedPacks([LINUX], {
    buildRoot: BUILD_ROOT,
    packsDir: inject('pictorPacks'),
  });
  const { appOut, log } = packs(LINUX);
  const asarFile = path.join(appOut, 'resources', 'app.asar');
  const asar = openAsar(asarFile);
  packed = { appOut, builderLog: log, asar, manifest: readJson<Manifest>(asar, 'package.json') };
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const mib = ((await stat(asarFile)).size / 1024 / 1024).toFixed(1);
  console.info(
    `packaging: linux-x64 packed or waited for in ${seconds} s, app.asar ${mib} MiB, ${asar.entries.size} entries`,
  );
}, 400_000);

describe('the packed linux-x64 folder', () => {
  it('renames the Electron executable to the app’s, flips its fuses, and keeps the licences', async () => {
    const { appOut } = current();
    const executable = path.join(appOut, 'pictor');
    expect((await stat(executable)).mode & 0o111).not.toBe(0);
    expect((await readFile(executable)).includes(FUSE_SENTINEL)).toBe(true);
    // electron-builder.yml's electronFuses, in wire order: RunAsNode off, cookie encryption on,
    // NODE_OPTIONS off, --inspect off, asar integrity on, only-asar on, V8 snapshot as shipped,
    // file:// privileges off.
    const flipped = Buffer.concat([
      Buffer.from(FUSE_SENTINEL, 'latin1'),
      Buffer.from([1, 8]),
      Buffer.from('01001100', 'latin1'),
    ]);
    expect((await readFile(executable)).includes(flipped)).toBe(true);
    await expect(access(path.join(appOut, 'electron'))).rejects.toThrow();
    await expect(access(path.join(appOut, 'LICENSE.electron.txt'))).resolves.toBeUndefined();
    await expect(access(path.join(appOut, 'LICENSES.chromium.html'))).resolves.toBeUndefined();
  });

  it('puts the fallback drag icon beside the asar', async () => {
    await expect(
      access(path.join(current().appOut, 'resources', 'drag-icon.png')),
    ).resolves.toBeUndefined();
  });

  it('downloaded nothing', () => {
    expect(current().builderLog).not.toMatch(/\bdownload(ing|ed)\b/i);
  });
});

describe('app.asar', () => {
  it('holds the build outputs, the manifest and node_modules, and nothing else at the top', () => {
    const top = [...current().asar.entries].filter((entry) => !entry.includes('/'));
    expect(top.sort()).toEqual(['dist', 'dist-electron', 'node_modules', 'package.json']);
    const own = [...current().asar.entries].filter((entry) => !entry.startsWith('node_modules/'));
    expect(own.filter((entry) => /\.(map|tsx?|mts|cts)$/.test(entry))).toEqual([]);
  });

  it('ships a manifest whose main is the bundled entry, without development fields', async () => {
    const { asar, manifest } = current();
    const source = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.main).toBe(source.main);
    expect(manifest.main).toBe('dist-electron/main.js');
    expect(asar.entries.has(manifest.main)).toBe(true);
    expect(manifest.desktopName).toBe('pictor.desktop');
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts).toBeUndefined();
  });

  it('resolves every package the main bundle imports but sharp, and the main bundle names the preload', () => {
    const { asar, manifest } = current();
    // The main bundle with every chunk it imports (the split build: a command's chunk is loaded
    // when it runs, and sharp's import sits in the core's chunk, not in main.js).
    const main = bundleClosure(
      (file) => readText(asar, file),
      path.posix.dirname(manifest.main),
      path.posix.basename(manifest.main),
    );
    const packages = bareImportsOf(main).filter((specifier) => !isRuntimeProvided(specifier));
    const unresolved = packages.filter(
      (specifier) =>
        resolvePackage(asar, packageNameOf(specifier), path.posix.dirname(manifest.main)) === null,
    );
    // The plain-Node CLI's engine tries sharp; in the packed app it must fail to load.
    expect(unresolved).toEqual(['sharp']);
    expect(main).toContain('preload.cjs');
  });

  it('ships the sandboxed preload, which requires nothing but electron', () => {
    const { asar } = current();
    expect(asar.entries.has('dist-electron/preload.cjs')).toBe(true);
    const required = requiresOf(readText(asar, 'dist-electron/preload.cjs'));
    expect(required.filter((name) => name !== 'electron')).toEqual([]);
  });

  it('ships the image renderer: its preload, its page and the workers the page starts', () => {
    const { asar, manifest } = current();
    const required = requiresOf(readText(asar, 'dist-electron/image-preload.cjs'));
    expect(required).toEqual(['electron']);
    const html = readText(asar, 'dist-electron/image-renderer/index.html');
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="\.\/([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(['page.js']);
    const page = readText(asar, 'dist-electron/image-renderer/page.js');
    expect(page).toContain('decode-worker.js');
    expect(page).toContain('c2pa-worker.js');
    // The Content Credentials worker carries c2pa-wasm's glue and fetches the module beside it.
    expect(readText(asar, 'dist-electron/image-renderer/c2pa-worker.js')).toContain(PAGE_C2PA_WASM);
    for (const script of ['page.js', 'decode-worker.js', 'c2pa-worker.js']) {
      const code = readText(asar, `dist-electron/image-renderer/${script}`);
      expect(bareImportsOf(code), script).toEqual([]);
    }
    // The main bundle finds both by their names.
    const main = readText(asar, manifest.main);
    expect(main).toContain('image-preload.cjs');
    expect(main).toContain('image-renderer');
  });

  it('ships the renderer page and every script and style it loads', () => {
    const { asar } = current();
    const html = readText(asar, 'dist/renderer/index.html');
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const asset of [...scripts, ...styles]) {
      expect(asset, 'asset URLs stay relative for the packaged app').not.toMatch(/^(\/|[a-z]+:)/i);
      expect(asar.entries.has(path.posix.join('dist/renderer', asset))).toBe(true);
    }
  });

  it('ships every production dependency and everything they depend on', () => {
    const { asar, manifest } = current();
    const names = Object.keys(manifest.dependencies ?? {});
    expect(names).toEqual(expect.arrayContaining(['electron-store', 'undici']));
    // The history is the runtime's own node:sqlite; the WASM SQLite is a dev (bench) dependency.
    expect(names).not.toContain('node-sqlite3-wasm');
    expect([...asar.entries].some((entry) => entry.includes('node-sqlite3-wasm'))).toBe(false);
    expect(names.filter((name) => resolvePackage(asar, name, '') === null)).toEqual([]);
    expect(unresolvedDependencies(asar)).toEqual([]);
  });

  it('leaves every development dependency out', async () => {
    const { asar } = current();
    const source = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
    const devNames = Object.keys(source.devDependencies ?? {});
    expect(devNames).toEqual(
      expect.arrayContaining([
        'electron',
        'vitest',
        'typescript',
        'eslint',
        'react',
        '@playwright/test',
        'vite',
      ]),
    );
    const shipped = devNames.filter((name) =>
      [...asar.entries].some(
        (entry) => entry === `node_modules/${name}` || entry.includes(`node_modules/${name}/`),
      ),
    );
    expect(shipped).toEqual([]);
  });

  it('ships no native code and no image library (no sharp, libvips or WebAssembly image codec); unpacks the Content Credentials WebAssembly', async () => {
    const { asar, appOut } = current();
    const entries = [...asar.entries];
    expect(entries.filter((entry) => /\.(node|dylib|dll|exe)$|\.so(\.\d+)*$/.test(entry))).toEqual(
      [],
    );
    expect(imageLibraryFiles(entries)).toEqual([]);
    // The one WebAssembly module is the Content Credentials verifier's (it decodes no image):
    // unpacked to disk in its package (the Node worker thread's), and packed beside the image
    // renderer's page (which the app protocol serves from the archive), the same bytes.
    const wasm = entries.filter((entry) => entry.endsWith('.wasm'));
    expect([...wasm].sort()).toEqual(C2PA_WASMS);
    // Unpacked: the verifier's package alone (electron-builder unpacks it whole).
    const unpackedEntries = entries.filter((entry) => isUnpacked(asar, entry));
    expect(unpackedEntries.filter((entry) => !entry.startsWith(C2PA_PACKAGE))).toEqual([]);
    expect(isUnpacked(asar, C2PA_WASM)).toBe(true);
    const onDisk = await readFile(path.join(appOut, 'resources', 'app.asar.unpacked', C2PA_WASM));
    expect(onDisk.equals(await readFile(path.join(ROOT, C2PA_WASM)))).toBe(true);
    expect(isUnpacked(asar, PAGE_C2PA_WASM_ENTRY)).toBe(false);
    expect(readBytes(asar, PAGE_C2PA_WASM_ENTRY).equals(onDisk)).toBe(true);
    const unpacked = await filesUnder(path.join(appOut, 'resources', 'app.asar.unpacked'));
    expect(imageLibraryFiles(unpacked)).toEqual([]);
    expect(imageLibraryFiles(await filesUnder(path.join(appOut, 'resources')))).toEqual([]);
    // The bundle may name sharp only as the import the plain-Node CLI tries (it fails here).
    const main = bundleClosure((file) => readText(asar, file), 'dist-electron', 'main.js');
    expect(bareImportsOf(main).filter((name) => packageNameOf(name) === 'sharp')).toEqual([
      'sharp',
    ]);
    expect(resolvePackage(asar, 'sharp', 'dist-electron')).toBe(null);
  });
});
