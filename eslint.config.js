// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Layering (STYLE.md, after VS Code's `code-layering`): one table, bottom layer first. A file
 * belongs to the row whose path is the longest that contains it (a folder ends in `/`); it may
 * import its own row and the rows in its `may` list, nothing else in the product folders, and
 * nothing that resolves outside the table. Every product file must be in a row. `electron` is how
 * the row may use Electron: `none` (not even types), `types` (`import type` only), `app` (at run
 * time, but not `ipcMain`/`ipcRenderer`: IPC goes through electron/ipc and the preload) or `ipc`.
 * `node: false` rows may not import Node built-ins. `packages` is the row's npm edge: the only
 * packages (by name; a subpath such as `zustand/react/shallow` counts as its package) its files may
 * import, types included, so the page cannot pull in a Node library and the core cannot reach for
 * an Electron-only one.
 */
const SHARED = ['shared'];
const PORTS = [...SHARED, 'electron/ports'];
/**
 * The core's own floor plan (docs/ARCHITECTURE.md, "Inside the core"): one row per module, bottom
 * first, each with its `may` list: the modules under it that it uses, only those (core-plan.test.ts
 * holds the list to the imports), so no folder loop can form. A module is entered through its face (`index.ts`, or the
 * faces its row declares: {@link CORE_FACES}), after VS Code's `code-no-deep-import-of-internal`:
 * a file outside the module that imports any other file of it fails lint, and the module's own
 * files import one another, never their face. The face's header comment is the module's own
 * description; the sentence here is what it is for, said again in the lint message when an
 * import goes where it may not.
 * @type {[string, string, string[]][]}
 */
const CORE_MODULES = [
  ['errors', 'the errors the user reads as sentences, and what a thrown value says', []],
  [
    'base',
    'generic building blocks: the operation runner, the process timers, work limits',
    ['errors'],
  ],
  ['command-line', "the app's own command line, read once", ['errors']],
  [
    'fs',
    'files and folders: contained paths, atomic writes, temporary names, error codes',
    ['base', 'errors'],
  ],
  ['secrets', 'what a key may look like and where it may echo back', ['errors']],
  [
    'workflows',
    'ComfyUI workflows imported as models, one checked file each',
    ['base', 'errors', 'fs'],
  ],
  [
    'param-schemas',
    "models' options fetched from a service or given in a file, kept in one bounded file",
    ['base', 'fs', 'service'],
  ],
  ['logging', 'the rotating, redacting log', ['errors', 'fs', 'secrets']],
  ['history', 'the SQLite history of tasks and the ledger rows', ['errors', 'secrets']],
  ['lineage', 'what an image was made from and what was made from it: its stack', ['history']],
  [
    'templates',
    "prompt templates' files: Pictor's own and other applications' styles",
    ['base', 'errors', 'fs', 'history'],
  ],
  ['images', 'image headers, sniffing and the image engine jobs', ['errors', 'fs', 'secrets']],
  ['service', "the service's dialects, its client and its answers", ['errors', 'secrets']],
  ['credentials', 'which key goes to which service address', ['service']],
  ['key-vault', 'keys kept by the operating system', ['errors', 'secrets', 'service']],
  ['settings', "the app's settings", ['credentials', 'errors', 'service']],
  ['content-credentials', 'C2PA verification', ['images']],
  [
    'gallery',
    "the folder as storage: layout, sidecars, its images' metadata",
    ['errors', 'fs', 'images'],
  ],
  [
    'download',
    'from a link or inline bytes to a checked, stamped and placed file',
    ['base', 'errors', 'fs', 'gallery', 'history', 'images', 'service'],
  ],
  [
    'inputs',
    'input images: the store by digest, their route to a model, uploads at send time',
    ['base', 'download', 'errors', 'fs', 'images', 'secrets', 'service'],
  ],
  [
    'engine',
    'submit, poll, download: the task engine',
    ['base', 'credentials', 'download', 'errors', 'fs', 'gallery', 'service'],
  ],
  ['costs', 'prices, caps and the ledger', ['base', 'engine', 'errors', 'history', 'service']],
  [
    'library',
    'where the library lives and how it moves, opens, rebuilds and is archived',
    ['base', 'download', 'engine', 'errors', 'fs', 'gallery', 'history', 'images', 'inputs'],
  ],
  [
    'trash',
    'deletes and removals with Undo',
    ['base', 'download', 'engine', 'errors', 'fs', 'gallery', 'library'],
  ],
  [
    'triage',
    'ratings, flags, tags and boards of images, and the boards themselves',
    ['base', 'engine', 'errors', 'gallery', 'history'],
  ],
  [
    'batch',
    'actions over many tasks or images',
    ['base', 'costs', 'credentials', 'engine', 'errors', 'fs', 'gallery', 'service', 'templates'],
  ],
  [
    'fan-out',
    'one request sent to several targets at once: the plan, the run, the cancel',
    ['batch', 'costs', 'engine', 'errors', 'history', 'service'],
  ],
  [
    'compare',
    'one prompt on several services at once, a use of the fan-out',
    ['engine', 'errors', 'fan-out'],
  ],
  [
    'edit',
    "images as inputs on one or more services, a use of the fan-out; the inputs' handling",
    ['base', 'engine', 'errors', 'fan-out', 'fs', 'gallery', 'images', 'inputs'],
  ],
  [
    'operations',
    'the long operations, one at a time per kind',
    ['base', 'batch', 'download', 'gallery', 'history', 'library', 'templates'],
  ],
  [
    'self-test',
    "the packaged app's self-test",
    ['content-credentials', 'errors', 'fs', 'gallery', 'history', 'images'],
  ],
];
/** @type {Record<string, string[]>} The faces of a module that needs more than its `index.ts`. */
/** Second faces: a door a front needs without the rest of the module (loaded at start). */
const CORE_FACES = {
  secrets: ['index.ts', 'key-echo-face.ts'],
  engine: ['index.ts', 'sidecar-face.ts'],
  gallery: ['index.ts', 'gallery-face.ts'],
};
const CORE_PACKAGES = ['zod', 'yaml', 'yauzl', 'yazl', '@contentauth/c2pa-wasm'];
/** @type {{ layer: string, paths: string[], may: string[], faces?: string[], electron: 'types', node: true, packages: string[], about: string }[]} */
const CORE_ROWS = [
  ...CORE_MODULES.map(([name, about, uses]) => ({
    layer: `electron/core/${name}`,
    paths: [`electron/core/${name}/`],
    may: [...PORTS, ...uses.map((used) => `electron/core/${used}`)],
    faces: (CORE_FACES[name] ?? ['index.ts']).map((face) => `electron/core/${name}/${face}`),
    electron: /** @type {const} */ ('types'),
    node: /** @type {const} */ (true),
    packages: CORE_PACKAGES,
    about,
  })),
  {
    layer: 'electron/core/pictor-core.ts',
    paths: [
      'electron/core/pictor-core.ts',
      'electron/core/pictor-core-options.ts',
      'electron/core/pictor-core-parts.ts',
    ],
    may: [...PORTS, ...CORE_MODULES.map(([name]) => `electron/core/${name}`)],
    electron: 'types',
    node: true,
    packages: CORE_PACKAGES,
    about: 'the core assembled from its modules, for every front',
  },
];
const CORE = [...PORTS, ...CORE_ROWS.map((row) => row.layer)];
const RENDERER = [...SHARED, 'renderer/i18n', 'renderer/lib', 'renderer/components'];
/**
 * The page's features (docs/ARCHITECTURE.md, "The renderer"): one row each, beside one another,
 * none under another. A feature may import the rooms under it (components, lib, store, i18n,
 * shared) and nothing of another feature: what two features share goes down into components/
 * (UI) or lib/ (logic), or into the store (its state and the hooks over it). The window
 * (app.tsx, shell/) composes the features. The sentence is said again when an import crosses.
 */
const RENDERER_FEATURES = [
  ['compare', 'the compare view: a compare group side by side, its plan dialog, 2-up and A/B'],
  ['compose', 'the compose form: a request, its service and its cost before it is sent'],
  ['costs', 'the Costs screen: the ledger, its totals and bars'],
  ['edit', 'images as inputs: the edit dialog, its mask editor and references'],
  ['gallery', 'the Gallery screen and the image viewer'],
  ['settings', 'the Settings screen: options, services and keys, caps, the library'],
  ['tasks', 'the Tasks screen: the history, its rows, details and actions'],
];
/** @type {{ layer: string, paths: string[], may: string[], electron: 'none', node: false, packages: string[], about: string }[]} */
const FEATURE_ROWS = RENDERER_FEATURES.map(([name, about]) => ({
  layer: `renderer/features/${name}`,
  paths: [`renderer/features/${name}/`],
  may: [...RENDERER, 'renderer/store'],
  electron: /** @type {const} */ ('none'),
  node: /** @type {const} */ (false),
  packages: ['react', 'react-dom', 'zustand'],
  about,
}));
/** @type {{ layer: string, paths: string[], may: string[], faces?: string[], electron: 'none' | 'types' | 'app' | 'ipc', node: boolean, packages: string[], about?: string }[]} */
export const layers = [
  {
    layer: 'shared',
    paths: ['shared/'],
    may: [],
    electron: 'none',
    node: false,
    // c2pa-wasm as types only: the reading code both verifiers share takes the library it is given.
    packages: [
      'zod',
      'intl-messageformat',
      '@formatjs/icu-messageformat-parser',
      '@contentauth/c2pa-wasm',
    ],
  },
  {
    layer: 'electron/ports',
    paths: ['electron/ports/'],
    may: SHARED,
    electron: 'types',
    node: true,
    packages: [],
  },
  ...CORE_ROWS,
  {
    layer: 'electron/demo-service',
    paths: ['electron/demo-service/'],
    may: CORE,
    electron: 'types',
    node: true,
    packages: ['zod'],
  },
  {
    // The development server's entry composes the demo with a plain-Node image engine.
    layer: 'electron/demo-service/cli.ts',
    paths: ['electron/demo-service/cli.ts'],
    may: [...CORE, 'electron/demo-service', 'electron/adapters'],
    electron: 'none',
    node: true,
    packages: [],
  },
  {
    // The desktop app's own policies over the core, in plain Node: the OS (menu, notifications,
    // dock progress, save names), the window, the app's protocols, its updates, the main
    // process's language, and whose key goes where (the vault, or the embedded demo).
    layer: 'electron/app',
    paths: ['electron/app/'],
    may: CORE,
    electron: 'types',
    node: true,
    packages: ['zod', 'yaml'],
  },
  {
    // The desktop runtime composes the core with the app's policies and the embedded demo service.
    layer: 'electron/app/app-runtime',
    paths: ['electron/app/app-runtime.ts', 'electron/app/app-environment.ts'],
    may: [...CORE, 'electron/app', 'electron/demo-service'],
    electron: 'types',
    node: true,
    packages: [],
  },
  {
    layer: 'electron/adapters',
    paths: ['electron/adapters/'],
    may: [...CORE, 'electron/app'],
    electron: 'app',
    node: true,
    // yauzl: the Info.plist of a macOS update's zip (installer-version.ts).
    packages: ['electron-store', 'electron-updater', 'sharp', 'undici', 'yauzl'],
  },
  {
    layer: 'electron/ipc',
    paths: ['electron/ipc/'],
    may: [...CORE, 'electron/app'],
    electron: 'ipc',
    node: true,
    packages: ['zod'],
  },
  {
    // The CLI runs in plain Node: the Node adapters, no Electron; the built-in demo service
    // inside a command (--provider demo), as the app runs it.
    layer: 'electron/cli',
    paths: ['electron/cli/'],
    may: [...CORE, 'electron/adapters', 'electron/demo-service'],
    electron: 'none',
    node: true,
    // `pictor mcp` (electron/cli/mcp/): the protocol's official SDK, loaded only when that
    // command runs, and the zod schemas its tools' inputs are declared with.
    packages: ['@modelcontextprotocol/sdk', 'zod'],
  },
  {
    layer: 'electron/build',
    paths: ['electron/build/'],
    may: CORE,
    electron: 'app',
    node: true,
    packages: ['esbuild', 'sharp'],
  },
  {
    layer: 'electron/window.ts',
    paths: ['electron/window.ts'],
    may: [...CORE, 'electron/app', 'electron/adapters'],
    electron: 'app',
    node: true,
    packages: [],
  },
  {
    layer: 'electron/preload.ts',
    paths: ['electron/preload.ts'],
    may: SHARED,
    electron: 'ipc',
    node: true,
    packages: [],
  },
  {
    // The image renderer's preload: it hands one MessagePort to the page, nothing else.
    layer: 'electron/image-preload.ts',
    paths: ['electron/image-preload.ts'],
    may: SHARED,
    electron: 'ipc',
    node: false,
    packages: [],
  },
  {
    // The image renderer's page and its decode workers: the DOM and workers, no Node, no Electron.
    layer: 'electron/image-renderer',
    paths: ['electron/image-renderer/'],
    may: SHARED,
    electron: 'none',
    node: false,
    // The page's Content Credentials worker runs the library in the sandbox.
    packages: ['@contentauth/c2pa-wasm'],
  },
  {
    layer: 'electron/cli-host.ts',
    paths: ['electron/cli-host.ts'],
    may: [...CORE, 'electron/cli'],
    electron: 'app',
    node: true,
    packages: [],
  },
  {
    // The desktop app's host parts, each its concern: the window, start-up, quit, menu, dialogs.
    layer: 'electron/host',
    paths: ['electron/host/'],
    may: [
      ...CORE,
      'electron/app',
      'electron/app/app-runtime',
      'electron/adapters',
      'electron/ipc',
      'electron/window.ts',
    ],
    electron: 'app',
    node: true,
    packages: [],
  },
  {
    layer: 'electron/app-main.ts',
    paths: ['electron/app-main.ts'],
    may: [
      ...CORE,
      'electron/app',
      'electron/app/app-runtime',
      'electron/adapters',
      'electron/host',
      'electron/window.ts',
    ],
    electron: 'app',
    node: true,
    packages: [],
  },
  {
    layer: 'electron/main.ts',
    paths: ['electron/main.ts'],
    // The command line gets the app's image engine and a warning stream from the adapters.
    may: [
      ...CORE,
      'electron/adapters',
      'electron/cli',
      'electron/cli-host.ts',
      'electron/app-main.ts',
    ],
    electron: 'app',
    node: true,
    packages: [],
  },
  {
    layer: 'renderer/i18n',
    paths: ['renderer/i18n/'],
    may: SHARED,
    electron: 'none',
    node: false,
    packages: ['intl-messageformat'],
  },
  {
    layer: 'renderer/lib',
    paths: ['renderer/lib/'],
    may: [...SHARED, 'renderer/i18n'],
    electron: 'none',
    node: false,
    packages: ['react', 'zod'],
  },
  {
    layer: 'renderer/components',
    paths: ['renderer/components/'],
    may: [...SHARED, 'renderer/i18n', 'renderer/lib'],
    electron: 'none',
    node: false,
    packages: ['react'],
  },
  {
    layer: 'renderer/store',
    paths: ['renderer/store/'],
    may: RENDERER,
    electron: 'none',
    node: false,
    // React for the few hooks over the store that several features use (use-*.ts).
    packages: ['zod', 'zustand', 'react'],
  },
  ...FEATURE_ROWS,
  {
    layer: 'renderer/styles',
    paths: ['renderer/styles/'],
    may: [],
    electron: 'none',
    node: false,
    packages: [],
  },
  {
    // The page's entry and the window around the features: app.tsx, main.tsx, shell/ (sidebar,
    // banners, status area, theme, language, screen keys). It composes the features.
    layer: 'renderer',
    paths: ['renderer/'],
    may: [
      ...RENDERER,
      'renderer/store',
      ...FEATURE_ROWS.map((row) => row.layer),
      'renderer/styles',
    ],
    electron: 'none',
    node: false,
    packages: ['react', 'react-dom'],
  },
];

/** Rows name paths from the project root, where this file is. */
const PROJECT_ROOT = path.dirname(fileURLToPath(import.meta.url));
const RAW_IPC = new Set(['ipcMain', 'ipcRenderer']);
const ELECTRON_USE = {
  none: '',
  types: ', Electron as types only',
  app: ', Electron (without ipcMain/ipcRenderer)',
  ipc: ', Electron',
};

/** @param {string} file */
const stem = (file) => file.replace(/\.(d\.ts|[cm]?[jt]sx?)$/, '');

/**
 * The row a project-relative path belongs to: the longest row path that contains it.
 * @param {typeof layers} rows
 * @param {string} file
 */
function rowOf(rows, file) {
  let found;
  let length = -1;
  for (const row of rows) {
    for (const where of row.paths) {
      const inside = where.endsWith('/')
        ? `${file}/`.startsWith(where)
        : stem(file) === stem(where);
      if (inside && where.length > length) [found, length] = [row, where.length];
    }
  }
  return found;
}

/**
 * Whether an import's target (project-relative, as resolved from its specifier) is the face at
 * `path`: the file itself with or without its extension, or its folder for an `index.ts`.
 * @param {string} target
 * @param {string} path
 */
function isFace(target, path) {
  return (
    stem(target) === stem(path) || (path.endsWith('/index.ts') && `${target}/index.ts` === path)
  );
}

/** @param {(typeof layers)[number]} row */
function allowedImports(row) {
  const packages = row.packages.length > 0 ? `, the packages ${row.packages.join(', ')}` : '';
  return `${[...row.may, row.layer].join(', ')}${row.node ? ', Node built-ins' : ''}${packages}${ELECTRON_USE[row.electron]}`;
}

/**
 * The npm package a bare specifier names: its scope and name, without a subpath.
 * @param {string} source
 */
export function packageName(source) {
  const parts = source.split('/');
  return (source.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * What an import statement brings in at run time: nothing (type-only), some names, or the whole
 * module ('*').
 * @param {any} node
 * @returns {'type' | '*' | string[]}
 */
function importedNames(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return 'type';
  if (node.type === 'ImportExpression' || node.type === 'ExportAllDeclaration') return '*';
  if (node.type === 'TSImportType') return 'type';
  /** @type {any[]} */
  const specifiers = node.specifiers ?? [];
  const values = specifiers.filter((s) => s.importKind !== 'type' && s.exportKind !== 'type');
  if (specifiers.length > 0 && values.length === 0) return 'type';
  if (specifiers.length === 0) return '*';
  if (values.some((s) => s.type !== 'ImportSpecifier' && s.type !== 'ExportSpecifier')) return '*';
  return values.map((s) => (s.type === 'ImportSpecifier' ? s.imported : s.local).name);
}

/** @type {import('eslint').Rule.RuleModule} */
const codeLayering = {
  meta: {
    type: 'problem',
    docs: { description: 'A file imports only from its own layer and the layers under it.' },
    schema: [
      {
        type: 'object',
        properties: { layers: { type: 'array' } },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      unlisted: "'{{file}}' is in no row of the layer table in eslint.config.js: add it to one.",
      crossing: '`{{layer}}`{{about}} may import only {{allowed}}; {{what}}.',
      deep: "'{{source}}' is inside `{{into}}`: import it through its face ({{faces}}), not its own files.",
      ownFace:
        "'{{source}}' is the face of `{{into}}`, this file's own module: its files import one another directly (through the face would make a circle).",
      rawIpc:
        'IPC goes through electron/ipc (main) and electron/preload.ts only, typed from shared/ipc/contract.ts; `{{layer}}` may not import {{name}}.',
    },
  },
  create(context) {
    /** @type {typeof layers} */
    const rows = context.options[0].layers;
    /** @param {string} absolute */
    const relative = (absolute) => path.relative(PROJECT_ROOT, absolute).split(path.sep).join('/');
    const file = relative(context.filename);
    const row = rowOf(rows, file);
    if (!row) {
      return { Program: (node) => context.report({ node, messageId: 'unlisted', data: { file } }) };
    }
    const may = new Set([row.layer, ...row.may]);
    /**
     * @param {any} node
     * @param {string} what
     */
    const cross = (node, what) =>
      context.report({
        node,
        messageId: 'crossing',
        data: {
          layer: row.layer,
          about: row.about ? ` (${row.about})` : '',
          allowed: allowedImports(row),
          what,
        },
      });

    /**
     * A module with faces is entered through them from outside, and never from inside.
     * @param {any} node
     * @param {string} source
     * @param {string} target
     * @param {(typeof layers)[number]} into
     */
    function checkFace(node, source, target, into) {
      if (!into.faces) return;
      const face = into.faces.some((path) => isFace(target, path));
      const data = { source, into: into.layer, faces: into.faces.join(', ') };
      if (into !== row && !face) context.report({ node, messageId: 'deep', data });
      else if (into === row && face && !into.faces.includes(file)) {
        context.report({ node, messageId: 'ownFace', data });
      }
    }

    /** @param {any} node */
    function check(node) {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const names = importedNames(node);
      if (source === 'electron' || source.startsWith('electron/')) {
        if (row.electron === 'none') cross(node, `'${source}' is Electron`);
        else if (row.electron === 'types' && names !== 'type')
          cross(node, `'${source}' is Electron at run time`);
        else if (row.electron === 'app' && names !== 'type') {
          const raw =
            names === '*'
              ? ["all of 'electron' (import the names you use)"]
              : names.filter((n) => RAW_IPC.has(n));
          for (const name of raw)
            context.report({ node, messageId: 'rawIpc', data: { layer: row.layer, name } });
        }
      } else if (source.startsWith('node:') || builtinModules.includes(source)) {
        if (!row.node) cross(node, `'${source}' is a Node built-in`);
      } else if (source.startsWith('.')) {
        const target = relative(path.resolve(path.dirname(context.filename), source));
        const into = rowOf(rows, target);
        if (!into) cross(node, `'${source}' is outside the layer table`);
        else if (!may.has(into.layer)) cross(node, `'${source}' is in \`${into.layer}\``);
        else checkFace(node, source, target, into);
      } else if (!row.packages.includes(packageName(source))) {
        cross(node, `'${packageName(source)}' is not on its package list`);
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
    };
  },
};

/** Product code: what the size limits and the layering cover. */
export const PRODUCT_CODE = [
  'electron/**/*.{ts,tsx,mjs}',
  'renderer/**/*.{ts,tsx}',
  'shared/**/*.{ts,tsx}',
];

/**
 * STYLE.md's sizes for product code: files under 300 lines, functions under 60 (40 later), at most
 * 4 parameters (more is an options object) and blocks 3 deep. Lines are code lines: blank lines and
 * comments do not count. Tests are left out: a `describe` callback is one function as long as its
 * cases, and fixture tables are long by nature, so the numbers would measure suites, not code.
 */
export const sizeLimits = {
  'max-lines': 300,
  'max-lines-per-function': 60,
  'max-params': 4,
  'max-depth': 3,
};

/**
 * Product files over a limit today, with their size now as their ceiling: such a file may shrink,
 * never grow, and no other file may pass a limit. Generated from the tree and kept exact by
 * tests/unit/lint/size-limits.test.ts: a file that shrinks must lower (or lose) its entry, and no
 * entry may pass tests/unit/lint/size-baseline.json (no new file, no higher ceiling), so the list
 * only gets shorter.
 * @type {Record<string, Partial<Record<keyof typeof sizeLimits, number>>>}
 */
export const sizeOffenders = {
  'electron/adapters/renderer-crashes.ts': { 'max-lines-per-function': 67 },
  'electron/app/app-runtime.ts': { 'max-params': 6 },
  'electron/cli/commands.ts': { 'max-depth': 4 },
  'electron/core/engine/task-engine.ts': { 'max-lines': 344 },
  'electron/core/trash/gallery-trash.ts': { 'max-depth': 4 },
  'electron/core/gallery/metadata/recover.ts': { 'max-params': 5 },
  'electron/core/library/rebuild.ts': { 'max-params': 5 },
  'electron/core/library/relocate-copy.ts': { 'max-depth': 4 },
  'electron/core/library/relocate.ts': { 'max-params': 6 },
  'electron/core/key-vault/key-state.ts': { 'max-params': 5 },
  'electron/core/library/archive/import-merge.ts': { 'max-params': 5 },
  'electron/core/library/archive/import-task.ts': { 'max-params': 5 },
  'electron/core/logging/log-line.ts': { 'max-params': 5 },
  'electron/core/trash/trash-replay.ts': { 'max-depth': 4 },
  'renderer/features/gallery/gallery-grid.tsx': { 'max-lines-per-function': 83 },
  'renderer/features/gallery/gallery-tile.tsx': { 'max-lines-per-function': 71 },
  'renderer/features/gallery/gallery-view.tsx': { 'max-lines-per-function': 90 },
  'renderer/features/gallery/gallery-viewer.tsx': { 'max-lines-per-function': 72 },
  'renderer/features/gallery/use-grid-focus.ts': { 'max-lines-per-function': 70 },
  'renderer/features/gallery/viewer-stage.tsx': { 'max-lines-per-function': 102 },
  'renderer/features/gallery/zoom-pan.ts': { 'max-params': 5 },
  'renderer/features/tasks/task-list.tsx': { 'max-lines-per-function': 70 },
  'renderer/lib/api.ts': { 'max-params': 5 },
  'renderer/store/paged-list.ts': { 'max-lines-per-function': 93 },
};

/** @param {Partial<Record<keyof typeof sizeLimits, number>>} limits */
export function sizeRules(limits) {
  /** @type {Record<string, unknown>} */
  const rules = {};
  const lines = { skipBlankLines: true, skipComments: true };
  for (const [rule, max] of Object.entries(limits)) {
    rules[rule] = rule.startsWith('max-lines') ? ['error', { max, ...lines }] : ['error', max];
  }
  return /** @type {import('eslint').Linter.RulesRecord} */ (rules);
}

const noDefaultExport = { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' };
/** Events reach the renderer only through electron/ipc's typed emitter. */
const noRawSend = [
  "CallExpression[callee.property.name='send'][callee.object.property.name='webContents']",
  "CallExpression[callee.property.name='send'][callee.object.name='webContents']",
].map((selector) => ({
  selector,
  message: 'Send events with the typed emitter in electron/ipc, not webContents.send.',
}));

const IPC_OUTSIDE_STORE =
  'The page reaches main only through the store: add an action to a slice in renderer/store.';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'dist-electron',
      'release',
      'coverage',
      'test-results',
      'playwright-report',
      // CI's caches (Electron, electron-builder's tools, Playwright's browsers).
      '.cache',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // A slice declares its part of the store's state as `interface AppState extends XSlice {}`.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', noDefaultExport, ...noRawSend],
    },
  },
  {
    files: PRODUCT_CODE,
    rules: sizeRules(sizeLimits),
  },
  // Today's offenders, each held at its own size until it is split.
  ...Object.entries(sizeOffenders).map(([file, ceilings]) => ({
    files: [file],
    rules: sizeRules(ceilings),
  })),
  {
    files: ['electron/**', 'shared/**', 'renderer/**'],
    plugins: { local: { rules: { 'code-layering': codeLayering } } },
    rules: { 'local/code-layering': ['error', { layers }] },
  },
  {
    // The page reaches main only through the store: features, components, the app shell and the
    // page's helpers read state and call store actions, and never a request, a subscription or
    // the bridge itself. Only the store and the bridge's own module (lib/api.ts) may.
    files: ['renderer/**'],
    ignores: ['renderer/store/**', 'renderer/lib/api.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // lib/api by any relative path, and `./api` (how renderer/lib names it).
              regex: '(^|/)lib/api$|^\\./api$',
              importNames: ['call', 'listen'],
              message: IPC_OUTSIDE_STORE,
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'pictor',
          message: IPC_OUTSIDE_STORE,
        })),
      ],
      'no-restricted-globals': ['error', { name: 'pictor', message: IPC_OUTSIDE_STORE }],
    },
  },
  {
    files: ['renderer/**', 'electron/image-renderer/**', 'electron/image-preload.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['electron/ipc/**', 'electron/preload.ts'],
    rules: { 'no-restricted-syntax': ['error', noDefaultExport] },
  },
  {
    // Tool config files must default-export; nothing else may.
    files: ['*.config.ts', '*.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The bench changes for its measurements and caches; a test leaning on it would change with
    // it. What both need lives in tests/support.
    files: ['tests/unit/**', 'tests/hardening/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/bench', '**/bench/**'],
              message: 'Tests import no bench code: move what both need to tests/support.',
            },
          ],
        },
      ],
    },
  },
);
