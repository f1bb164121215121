/**
 * The bundled CLI's entry file (electron/cli/main.ts) holds main.ts, the cache's own code
 * (compile-cache.ts, which imports Node's modules alone) and the key variables' names
 * (key-variables.ts, no imports), and imports none of the CLI before it runs: Node compiles a module's static imports before the module's first line, so
 * whatever the entry imports statically is compiled before main.ts turns on the compiled-code
 * cache, and a start paid for it every time. The dispatcher, the command table and the key
 * scrubber are imported by runCli, after the cache is on. (On a one-record command of the bench's
 * million-task library this was about 30 ms of CPU of each start.) Nor does the bundle hold zod's
 * translations of its messages (build-electron.ts), half of the bundled zod's code.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEntryArgs } from '../../support/node-entry-args';

/** What a chunk's `// <source>` lines name. */
const SOURCE = /^\/\/ (\S+\.ts)$/gm;
/** A static import of a file of the bundle: `import … from "./x.js"` or `import "./x.js"`. */
const STATIC_IMPORT = /^import\s+(?:[^'";]*?\s+from\s+)?["']\.\/([^"']+)["'];?$/gm;

/** The sources of `file` and of every file of the bundle it imports statically, transitively. */
async function staticSources(bundle: string, file: string): Promise<string[]> {
  const sources = new Set<string>();
  const seen = new Set<string>();
  const visit = async (name: string): Promise<void> => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = await readFile(join(bundle, name), 'utf8');
    for (const [, source = ''] of text.matchAll(SOURCE)) sources.add(source);
    for (const [, imported = ''] of text.matchAll(STATIC_IMPORT)) await visit(imported);
  };
  await visit(file);
  return [...sources].sort();
}

describe("the bundled CLI's entry", () => {
  it('imports none of the CLI before the compiled-code cache is on', async () => {
    const entry = nodeEntryArgs('cli')[0] ?? '';
    const bundle = dirname(entry);
    expect(await staticSources(bundle, entry.slice(bundle.length + 1))).toEqual([
      'electron/cli/compile-cache.ts',
      'electron/cli/key-variables.ts',
      'electron/cli/main.ts',
    ]);
    // The check itself: the dispatcher is in the bundle, named in a chunk the entry loads later.
    const text = await readFile(entry, 'utf8');
    const later = [...text.matchAll(/\bimport\(["']\.\/([^"']+)["']\)/g)].map(([, name]) => name);
    const found = await Promise.all(later.map((name) => staticSources(bundle, name ?? '')));
    expect(found.flat()).toContain('electron/cli/cli-dispatch.ts');
  });

  it("holds none of zod's translations of its messages but its English", async () => {
    const bundle = dirname(nodeEntryArgs('cli')[0] ?? '');
    const locales = /^\/\/ \S*node_modules\/zod\/v4\/locales\/(\S+\.js)$/gm;
    const found = new Set<string>();
    for (const name of (await readdir(bundle)).filter((file) => file.endsWith('.js'))) {
      const text = await readFile(join(bundle, name), 'utf8');
      for (const [, locale = ''] of text.matchAll(locales)) found.add(locale);
    }
    expect([...found]).toEqual(['en.js']);
  });
});
