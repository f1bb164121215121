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
 * `node: false` rows may not import Node built-ins.
 */
const SHARED = ['shared'];
const PORTS = [...SHARED, 'electron/ports'];
const CORE = [...PORTS, 'electron/core'];
const RENDERER = [...SHARED, 'renderer/i18n', 'renderer/lib', 'renderer/components'];
/** @type {{ layer: string, paths: string[], may: string[], electron: 'none' | 'types' | 'app' | 'ipc', node: boolean }[]} */
export const layers = [
  { layer: 'shared', paths: ['shared/'], may: [], electron: 'none', node: false },
  {
    layer: 'electron/ports',
    paths: ['electron/ports/'],
    may: SHARED,
    electron: 'types',
    node: true,
  },
  { layer: 'electron/core', paths: ['electron/core/'], may: PORTS, electron: 'types', node: true },
  {
    layer: 'electron/demo-service',
    paths: ['electron/demo-service/'],
    may: CORE,
    electron: 'types',
    node: true,
  },
  {
    // The development server's entry composes the demo with a plain-Node image engine.
    layer: 'electron/demo-service/cli.ts',
    paths: ['electron/demo-service/cli.ts'],
    may: [...CORE, 'electron/demo-service', 'electron/adapters'],
    electron: 'none',
    node: true,
  },
  {
    // The desktop runtime composes the core with the embedded demo service.
    layer: 'electron/core/app-runtime',
    paths: ['electron/core/app-runtime.ts', 'electron/core/app-environment.ts'],
    may: [...CORE, 'electron/demo-service'],
    electron: 'types',
    node: true,
  },
  {
    layer: 'electron/adapters',
    paths: ['electron/adapters/'],
    may: CORE,
    electron: 'app',
    node: true,
  },
  { layer: 'electron/ipc', paths: ['electron/ipc/'], may: CORE, electron: 'ipc', node: true },
  {
    // The CLI runs in plain Node: the Node adapters, no Electron.
    layer: 'electron/cli',
    paths: ['electron/cli/'],
    may: [...CORE, 'electron/adapters'],
    electron: 'none',
    node: true,
  },
  { layer: 'electron/build', paths: ['electron/build/'], may: CORE, electron: 'app', node: true },
  {
    layer: 'electron/window.ts',
    paths: ['electron/window.ts'],
    may: [...CORE, 'electron/adapters'],
    electron: 'app',
    node: true,
  },
  {
    layer: 'electron/preload.ts',
    paths: ['electron/preload.ts'],
    may: SHARED,
    electron: 'ipc',
    node: true,
  },
  {
    // The image renderer's preload: it hands one MessagePort to the page, nothing else.
    layer: 'electron/image-preload.ts',
    paths: ['electron/image-preload.ts'],
    may: SHARED,
    electron: 'ipc',
    node: false,
  },
  {
    // The image renderer's page and its decode workers: the DOM and workers, no Node, no Electron.
    layer: 'electron/image-renderer',
    paths: ['electron/image-renderer/'],
    may: SHARED,
    electron: 'none',
    node: false,
  },
  {
    layer: 'electron/cli-host.ts',
    paths: ['electron/cli-host.ts'],
    may: [...CORE, 'electron/cli'],
    electron: 'app',
    node: true,
  },
  {
    layer: 'electron/app-main.ts',
    paths: ['electron/app-main.ts'],
    may: [
      ...CORE,
      'electron/core/app-runtime',
      'electron/adapters',
      'electron/ipc',
      'electron/window.ts',
    ],
    electron: 'app',
    node: true,
  },
  {
    layer: 'electron/main.ts',
    paths: ['electron/main.ts'],
    may: [...CORE, 'electron/cli', 'electron/cli-host.ts', 'electron/app-main.ts'],
    electron: 'app',
    node: true,
  },
  { layer: 'renderer/i18n', paths: ['renderer/i18n/'], may: SHARED, electron: 'none', node: false },
  {
    layer: 'renderer/lib',
    paths: ['renderer/lib/'],
    may: [...SHARED, 'renderer/i18n'],
    electron: 'none',
    node: false,
  },
  {
    layer: 'renderer/components',
    paths: ['renderer/components/'],
    may: [...SHARED, 'renderer/i18n', 'renderer/lib'],
    electron: 'none',
    node: false,
  },
  {
    layer: 'renderer/store',
    paths: ['renderer/store/'],
    may: RENDERER,
    electron: 'none',
    node: false,
  },
  {
    layer: 'renderer/features',
    paths: ['renderer/features/'],
    may: [...RENDERER, 'renderer/store'],
    electron: 'none',
    node: false,
  },
  { layer: 'renderer/styles', paths: ['renderer/styles/'], may: [], electron: 'none', node: false },
  {
    // The page's entry and shell: app.tsx, main.tsx.
    layer: 'renderer',
    paths: ['renderer/'],
    may: [...RENDERER, 'renderer/store', 'renderer/features', 'renderer/styles'],
    electron: 'none',
    node: false,
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

/** @param {(typeof layers)[number]} row */
function allowedImports(row) {
  return `${[...row.may, row.layer].join(', ')}${row.node ? ', Node built-ins' : ''}${ELECTRON_USE[row.electron]}`;
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
      crossing: '`{{layer}}` may import only {{allowed}}; {{what}}.',
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
        data: { layer: row.layer, allowed: allowedImports(row), what },
      });

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

const noDefaultExport = { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' };
/** Events reach the renderer only through electron/ipc's typed emitter. */
const noRawSend = [
  "CallExpression[callee.property.name='send'][callee.object.property.name='webContents']",
  "CallExpression[callee.property.name='send'][callee.object.name='webContents']",
].map((selector) => ({
  selector,
  message: 'Send events with the typed emitter in electron/ipc, not webContents.send.',
}));

const IPC_IN_FEATURES =
  'Features reach main only through the store: add an action to a slice in renderer/store.';

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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', noDefaultExport, ...noRawSend],
    },
  },
  {
    // Size limits at the product code's largest today (STYLE asks for files under ~300 lines and
    // functions under ~40): nothing may grow past them; lower each as the largest shrinks.
    // Largest now (code lines, no blanks or comments): core/engine/task-engine.ts (417 lines),
    // app-main.ts's startApp (236 lines; next: store/tasks-slice.ts's slice, 148),
    // core/app-runtime.ts's constructor (6 parameters), 4 levels deep in cli/commands.ts,
    // gallery/relocate-copy.ts and service/key-echo-views.ts.
    files: ['electron/**/*.ts', 'renderer/**/*.{ts,tsx}', 'shared/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 417, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 236, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 6],
      'max-depth': ['error', 4],
    },
  },
  {
    files: ['electron/**', 'shared/**', 'renderer/**'],
    plugins: { local: { rules: { 'code-layering': codeLayering } } },
    rules: { 'local/code-layering': ['error', { layers }] },
  },
  {
    // The page reaches main only through the store: a feature reads state and calls store actions,
    // and never a request, a subscription or the bridge itself.
    files: ['renderer/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/api'],
              importNames: ['call', 'listen'],
              message: IPC_IN_FEATURES,
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'pictor',
          message: IPC_IN_FEATURES,
        })),
      ],
      'no-restricted-globals': ['error', { name: 'pictor', message: IPC_IN_FEATURES }],
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
