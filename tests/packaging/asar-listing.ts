/**
 * Read-only questions about a packed app.asar, answered from @electron/asar's listing and header:
 * which files it holds, which are unpacked, and whether a bare import resolves the way Node
 * would resolve it inside the archive.
 */
import { extractFile, listPackage, statFile } from '@electron/asar';
import { readdir } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** A packed archive opened for questions. */
export interface AsarListing {
  readonly archive: string;
  /** Archive paths without the leading slash, files and folders alike. */
  readonly entries: ReadonlySet<string>;
}

/** Lists an archive once; the returned object answers every later question. */
export function openAsar(archive: string): AsarListing {
  const entries = listPackage(archive, { isPack: false }).map((entry) =>
    entry.replace(/\\/g, '/').replace(/^\//, ''),
  );
  return { archive, entries: new Set(entries) };
}

/** A file's text from inside the archive (unpacked files are read from app.asar.unpacked). */
export function readText(asar: AsarListing, file: string): string {
  return extractFile(asar.archive, file).toString('utf8');
}

/** A parsed JSON file from inside the archive. */
export function readJson<T>(asar: AsarListing, file: string): T {
  return JSON.parse(readText(asar, file)) as T;
}

/** Whether the header marks the entry as stored in app.asar.unpacked. */
export function isUnpacked(asar: AsarListing, file: string): boolean {
  const stat = statFile(asar.archive, file, false) as { unpacked?: boolean };
  return stat.unpacked === true;
}

/** `sharp` → `sharp`, `undici/types` → `undici`, `@img/colour/x` → `@img/colour`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Whether a specifier names a Node built-in (`fs`, `node:fs`) or Electron. */
export function isRuntimeProvided(specifier: string): boolean {
  if (specifier.startsWith('node:') || specifier === 'electron') return true;
  return builtinModules.includes(packageNameOf(specifier));
}

/** Bare specifiers of an esbuild ESM bundle's static and dynamic imports. */
export function bareImportsOf(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /^\s*import\s[^;]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier && !specifier.startsWith('.') && !specifier.startsWith('/')) {
        found.add(specifier);
      }
    }
  }
  return [...found];
}

/**
 * A split bundle's code: the text of `entry` (inside `dir`) followed by every chunk beside it that
 * it imports, statically or dynamically (`./chunk-….js`), and theirs in turn. `read` reads a file
 * by its path (from the archive or the disk).
 */
export function bundleClosure(read: (file: string) => string, dir: string, entry: string): string {
  const seen = new Set<string>();
  const texts: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = read(`${dir}/${file}`);
    texts.push(text);
    const chunk = /(?:\bfrom\s*|^\s*import\s*|\bimport\(\s*)["']\.\/([^"'/]+\.js)["']/gm;
    for (const match of text.matchAll(chunk)) visit(match[1]!);
  };
  visit(entry);
  return texts.join('\n');
}

/** Specifiers passed to `require("…")` in a CommonJS bundle. */
export function requiresOf(source: string): string[] {
  return [
    ...new Set([...source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!)),
  ];
}

/**
 * Where Node would find package `name` imported from folder `fromDir` inside the archive: the
 * nearest `node_modules/<name>/package.json` walking up to the root, or null.
 */
export function resolvePackage(asar: AsarListing, name: string, fromDir: string): string | null {
  let dir = fromDir.replace(/^\/|\/$/g, '');
  for (;;) {
    const base = dir === '' ? 'node_modules' : `${dir}/node_modules`;
    const candidate = `${base}/${name}`;
    if (asar.entries.has(`${candidate}/package.json`)) return candidate;
    if (dir === '') return null;
    const parent = path.posix.dirname(dir);
    dir = parent === '.' ? '' : parent;
  }
}

/** Every package folder in the archive (`node_modules/x`, `node_modules/@s/y`, nested too). */
export function packageFolders(asar: AsarListing): string[] {
  return [...asar.entries]
    .filter((entry) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@][^/]*\/package\.json$/.test(entry))
    .map((entry) => entry.slice(0, -'/package.json'.length));
}

/**
 * Dependencies (not optional ones: those are per platform) of shipped packages that do not
 * resolve inside the archive, as `package → dependency`.
 */
export function unresolvedDependencies(asar: AsarListing): string[] {
  const missing: string[] = [];
  for (const folder of packageFolders(asar)) {
    const manifest = readJson<{ dependencies?: Record<string, string> }>(
      asar,
      `${folder}/package.json`,
    );
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (resolvePackage(asar, dependency, folder) === null)
        missing.push(`${folder} → ${dependency}`);
    }
  }
  return missing;
}

/**
 * An image library's file: sharp (any build), libvips, or a WebAssembly image codec. The app
 * decodes with Chromium's own codecs; none of these may be packed.
 */
const IMAGE_LIBRARY =
  /(^|\/)node_modules\/(sharp|@img\/[^/]+|wasm-vips|@jsquash\/[^/]+|@squoosh\/[^/]+)(\/|$)|libvips|sharp[^/]*\.node$/i;

/** The Content Credentials verifier's package, unpacked from the asar whole. */
export const C2PA_PACKAGE = 'node_modules/@contentauth/c2pa-wasm/';
/** The Content Credentials verifier's WebAssembly module (no image codec), as its package ships it. */
export const C2PA_WASM = `${C2PA_PACKAGE}pkg/c2pa_bg.wasm`;
/**
 * The same module, copied beside the image renderer's page, which verifies in the app
 * (electron/image-renderer/c2pa-worker.ts): packed, served by the app protocol from the archive.
 */
export const PAGE_C2PA_WASM_ENTRY = 'dist-electron/image-renderer/c2pa_bg.wasm';
/** The WebAssembly modules the app carries, sorted. */
export const C2PA_WASMS = [PAGE_C2PA_WASM_ENTRY, C2PA_WASM];

/** The bytes of a file inside the archive. */
export function readBytes(asar: AsarListing, file: string): Buffer {
  return extractFile(asar.archive, file);
}

/**
 * Every image library file among archive entries or files unpacked beside the archive, and every
 * WebAssembly module but {@link C2PA_WASMS}: a new one could be a codec, and must be looked at.
 */
export function imageLibraryFiles(entries: Iterable<string>): string[] {
  return [...entries].filter(
    (entry) =>
      IMAGE_LIBRARY.test(entry) ||
      (entry.endsWith('.wasm') && !C2PA_WASMS.some((wasm) => entry.endsWith(wasm))),
  );
}

/** Every file under `dir` on disk, relative to it with `/` separators; none when it is absent. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}
