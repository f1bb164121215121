/**
 * The main-process and preload bundles, built from small stand-in sources in a temp folder:
 * production dependencies stay imports in the ESM main bundle, the CommonJS preload inlines
 * everything but `electron`, and a Node built-in in the preload fails the build. The image
 * renderer's page and preload are built beside them, self-contained.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildElectron, mainExternals } from '../../electron/build/build-electron';
import { bareImportsOf, bundleClosure, requiresOf } from './asar-listing';
import { removeFolder, tempFolder } from '../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let rootDir: string;

/** A bundle of the build and every chunk it imports (the main build is split). */
function codeOf(outDir: string, entry: string): string {
  return bundleClosure((file) => readFileSync(file, 'utf8'), outDir, entry);
}

async function writeSource(relative: string, text: string): Promise<void> {
  const file = path.join(rootDir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

beforeEach(async () => {
  rootDir = await tempFolder('build');
  await symlink(path.join(ROOT, 'node_modules'), path.join(rootDir, 'node_modules'), 'dir');
  await writeSource(
    'package.json',
    // sharp only a devDependency, as in the real manifest: the bundle must still leave it out.
    JSON.stringify({
      type: 'module',
      dependencies: { undici: '*', '@contentauth/c2pa-wasm': '*', zod: '*' },
      devDependencies: { sharp: '*' },
    }),
  );
  await writeSource(
    'electron/main.ts',
    [
      "import { app } from 'electron';",
      "import path from 'node:path';",
      "import { fetch } from 'undici';",
      "import { z } from 'zod';",
      "import { greeting } from './greeting';",
      "const preload = path.join(import.meta.dirname, 'preload.cjs');",
      "const sharp = async () => (await import('sharp')).default;",
      "const later = async () => (await import('./later')).later;",
      'console.log(app, sharp, later, fetch, z.string().parse(greeting), preload);',
      "console.log('debugger flag: ' + process.env.PICTOR_TEST_BUILD);",
    ].join('\n'),
  );
  await writeSource('electron/greeting.ts', "export const greeting = 'inlined-greeting';\n");
  await writeSource('electron/later.ts', "export const later = 'loaded-when-used';\n");
  await writeSource(
    'electron/core/content-credentials/c2pa-worker.ts',
    [
      "import { parentPort } from 'node:worker_threads';",
      "import { twice } from '../images/twice.ts';",
      "const c2pa = await import('@contentauth/c2pa-wasm');",
      'parentPort?.postMessage(`${twice(2)} ${typeof c2pa}`);',
    ].join('\n'),
  );
  await writeSource(
    'electron/core/service/answer-worker.ts',
    [
      "import { parentPort } from 'node:worker_threads';",
      "import { twice } from '../images/twice.ts';",
      'parentPort?.postMessage(twice(3));',
    ].join('\n'),
  );
  await writeSource(
    'electron/core/history/history-worker.ts',
    [
      "import { parentPort } from 'node:worker_threads';",
      "import { twice } from '../images/twice.ts';",
      'parentPort?.postMessage(twice(4));',
    ].join('\n'),
  );
  await writeSource(
    'electron/core/images/twice.ts',
    'export const twice = (n: number): string => `inlined-twice-${n * 2}`;\n',
  );
  await writeSource(
    'electron/preload.ts',
    [
      "import { contextBridge } from 'electron';",
      "import { z } from 'zod';",
      "contextBridge.exposeInMainWorld('pictor', { ok: z.boolean().parse(true) });",
    ].join('\n'),
  );
  await writeSource(
    'electron/image-preload.ts',
    "import { ipcRenderer } from 'electron';\nipcRenderer.on('port', () => undefined);\n",
  );
  await writeSource(
    'electron/image-renderer/index.html',
    '<script type="module" src="./page.js"></script>\n',
  );
  await writeSource(
    'electron/image-renderer/page.ts',
    "import { shared } from './shared';\nnew Worker(new URL('./decode-worker.js', import.meta.url), { type: 'module' });\nconsole.log(shared);\n",
  );
  await writeSource(
    'electron/image-renderer/decode-worker.ts',
    "import { shared } from './shared';\nconsole.log(`worker ${shared}`);\n",
  );
  await writeSource(
    'electron/image-renderer/c2pa-worker.ts',
    "import { shared } from './shared';\nconsole.log(`c2pa ${shared}`);\n",
  );
  await writeSource(
    'electron/image-renderer/shared.ts',
    "export const shared = 'inlined-shared';\n",
  );
});

afterEach(async () => {
  await removeFolder(rootDir);
});

describe('mainExternals', () => {
  it('keeps Electron, every production dependency but zod, and sharp, with their subpaths, external', () => {
    expect(mainExternals({ undici: '^1', zod: '^4', '@scope/pkg': '^2' })).toEqual([
      'electron',
      'electron/*',
      'undici',
      'undici/*',
      '@scope/pkg',
      '@scope/pkg/*',
      'sharp',
      'sharp/*',
    ]);
  });
});

describe('buildElectron', () => {
  it('writes an ESM main bundle that imports production dependencies but zod and inlines the rest', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    const bundles = await buildElectron({ rootDir, outDir });
    const chunks = bundles
      .map((bundle) => bundle.file)
      .filter((file) => /^(chunk|later)-/.test(file));
    expect(
      bundles
        .map((bundle) => bundle.file)
        .filter((file) => !chunks.includes(file))
        .sort(),
    ).toEqual([
      'answer-worker.js',
      'c2pa-worker.js',
      'history-worker.js',
      'image-preload.cjs',
      'image-renderer/c2pa-worker.js',
      'image-renderer/decode-worker.js',
      'image-renderer/page.js',
      'main.js',
      'preload.cjs',
    ]);

    const main = codeOf(outDir, 'main.js');
    expect(bareImportsOf(main).sort()).toEqual([
      'electron',
      'node:module',
      'node:path',
      'sharp',
      'undici',
    ]);
    expect(main).toContain('inlined-greeting');
    expect(main).toContain('__pictorRequire ??= __pictorCreateRequire(import.meta.url);');
    expect(main).not.toMatch(/\brequire\(["']/);
  });

  it('splits the main bundle: a module imported only when used is a chunk beside main.js', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const main = await readFile(path.join(outDir, 'main.js'), 'utf8');
    expect(main).not.toContain('loaded-when-used');
    expect(main).toMatch(/import\(["']\.\/later-[A-Z0-9]+\.js["']\)/);
    const later = (await readdir(outDir)).filter((file) => /^later-.*\.js$/.test(file));
    expect(later).toHaveLength(1);
    expect(await readFile(path.join(outDir, later[0]!), 'utf8')).toContain('loaded-when-used');
    // Each chunk carries the require the bundled CommonJS code may call.
    for (const file of (await readdir(outDir)).filter((name) => /^chunk-.*\.js$/.test(name)))
      expect(await readFile(path.join(outDir, file), 'utf8')).toContain('__pictorCreateRequire');
  });

  it('fixes the test-build flag in the bundle, so no environment can turn a debugger on', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const release = await readFile(path.join(outDir, 'main.js'), 'utf8');
    expect(release).not.toContain('process.env.PICTOR_TEST_BUILD');
    expect(release).toMatch(/"debugger flag: "( \+ "")?\)/);
    await buildElectron({ rootDir, outDir }, { testBuild: true });
    const test = await readFile(path.join(outDir, 'main.js'), 'utf8');
    expect(test).toMatch(/"debugger flag: (" \+ ")?1"\)/);
  });

  it('never inlines sharp, a devDependency: it stays an import the packed app cannot meet', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const main = codeOf(outDir, 'main.js');
    expect(main).toMatch(/import\(["']sharp["']\)/);
    expect(main).not.toMatch(/libvips|sharp\.node/);
  });

  it('writes the Content Credentials worker beside main.js, c2pa-wasm loaded at run time', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const worker = codeOf(outDir, 'c2pa-worker.js');
    expect(worker).toContain('inlined-twice');
    expect(bareImportsOf(worker)).toContain('@contentauth/c2pa-wasm');
  });

  it('writes the answer worker beside main.js, with the main bundle’s options', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const worker = codeOf(outDir, 'answer-worker.js');
    expect(worker).toContain('inlined-twice');
    expect(bareImportsOf(worker)).toContain('node:worker_threads');
    expect(worker).toContain('__pictorRequire ??= __pictorCreateRequire(import.meta.url);');
  });

  it('writes a CommonJS preload that requires only electron', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const preload = await readFile(path.join(outDir, 'preload.cjs'), 'utf8');
    expect(requiresOf(preload)).toEqual(['electron']);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('writes the image page (index.html, page and worker, each self-contained) and its preload', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await buildElectron({ rootDir, outDir });
    const page = path.join(outDir, 'image-renderer');
    expect(await readFile(path.join(page, 'index.html'), 'utf8')).toContain('./page.js');
    for (const script of ['page.js', 'decode-worker.js']) {
      const code = await readFile(path.join(page, script), 'utf8');
      expect(code).toContain('inlined-shared');
      expect(bareImportsOf(code)).toEqual([]);
      expect(code).not.toMatch(/\brequire\(/);
    }
    const preload = await readFile(path.join(outDir, 'image-preload.cjs'), 'utf8');
    expect(requiresOf(preload)).toEqual(['electron']);
  });

  it('fails when the image page imports a Node built-in', async () => {
    await writeSource(
      'electron/image-renderer/decode-worker.ts',
      "import { readFileSync } from 'node:fs';\nconsole.log(readFileSync);\n",
    );
    await expect(
      buildElectron({ rootDir, outDir: path.join(rootDir, 'out') }, { logLevel: 'silent' }),
    ).rejects.toThrow(/node:fs/);
  });

  it('empties the output folder first', async () => {
    const outDir = path.join(rootDir, 'dist-electron');
    await writeSource('dist-electron/stale.js', 'old\n');
    await buildElectron({ rootDir, outDir });
    await expect(readFile(path.join(outDir, 'stale.js'))).rejects.toThrow();
  });

  it('fails when the preload imports a Node built-in, which the sandbox does not provide', async () => {
    await writeSource(
      'electron/preload.ts',
      "import { readFileSync } from 'node:fs';\nconsole.log(readFileSync);\n",
    );
    // Silent: the error is the thrown one (esbuild would also print it, as an [ERROR] in a passing log).
    await expect(
      buildElectron({ rootDir, outDir: path.join(rootDir, 'out') }, { logLevel: 'silent' }),
    ).rejects.toThrow(/node:fs/);
  });
});
