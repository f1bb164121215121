/**
 * zod as the main bundle takes it: only the parts Pictor's code calls. Every module imports zod's
 * namespace as `import { z } from 'zod'`, a binding zod's entry re-exports (`export { z }`), so
 * esbuild keeps the whole namespace object and every schema kind, check, codec, ISO format and the
 * JSON-schema converter with it (~420 KB in the chunk every command of the CLI loads). The same
 * namespace imported directly (`import * as z from '…/classic/external.js'`) is one esbuild sees
 * through: each `z.object` is a plain reference and what no module names is left out. This plugin
 * makes that one change to each source file's import as it is loaded: the same module (zod's
 * classic API, with its `config(en())`), the same binding, nothing else touched.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';

/** `import { z } from 'zod';` or `import { z as name } from 'zod';`: a value import of the namespace. */
const ZOD_NAMESPACE_IMPORT = /^import \{ z(?: as (\w+))? \} from 'zod';$/gm;

/** zod's classic API module, the one its entry re-exports as `z`. */
function zodClassic(rootDir: string): string {
  const entry = createRequire(path.join(rootDir, 'package.json')).resolve('zod');
  return path.join(path.dirname(entry), 'v4', 'classic', 'external.js');
}

/** `source` with its namespace imports of zod made direct; unchanged when it has none. */
function shakeableZodImports(source: string, classic: string): string {
  return source.replace(
    ZOD_NAMESPACE_IMPORT,
    (_whole, alias: string | undefined) =>
      `import * as ${alias ?? 'z'} from ${JSON.stringify(classic)};`,
  );
}

export function zodShaken(rootDir: string): Plugin {
  const classic = zodClassic(rootDir);
  return {
    name: 'zod-shaken',
    setup(bundler) {
      bundler.onLoad({ filter: /\.tsx?$/ }, async ({ path: file }) => {
        if (/[\\/]node_modules[\\/]/.test(file)) return undefined;
        const source = await readFile(file, 'utf8');
        if (!source.includes("from 'zod';")) return undefined;
        return {
          contents: shakeableZodImports(source, classic),
          loader: file.endsWith('x') ? 'tsx' : 'ts',
        };
      });
    },
  };
}
