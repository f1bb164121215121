// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * Layering (STYLE.md): the folder names the runtime a file may run in, and a crossing is a
 * lint failure, not a review comment.
 */
const electronRuntime = {
  name: 'electron',
  message:
    'Only electron/adapters, electron/main.ts, electron/preload.ts and electron/window.ts may use Electron at run time; use `import type` elsewhere.',
  allowTypeImports: true,
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
const rawIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message:
    'IPC goes through electron/ipc (main) and electron/preload.ts only, typed from shared/ipc/contract.ts.',
};

/**
 * What renderer code may not import, plus the layer's own rule: a later block for the same files
 * replaces this rule's options, so every renderer block repeats the renderer-wide ones.
 */
function rendererImports(...layer) {
  return {
    paths: [
      {
        name: 'electron',
        message: 'The renderer talks to the main process only through window.pictor.',
      },
    ],
    patterns: [
      { group: ['node:*'], message: 'The renderer has no Node.' },
      {
        group: ['**/electron/**'],
        message: 'The renderer imports nothing from the main process; use shared/.',
      },
      ...layer,
    ],
  };
}

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
    // Largest now: core/engine/task-engine.ts (file), app-main.ts startApp (function),
    // core/app-runtime.ts's constructor (parameters), cli/commands.ts (nesting).
    files: ['electron/**/*.ts', 'renderer/**/*.{ts,tsx}', 'shared/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 417, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 263, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 6],
      'max-depth': ['error', 4],
    },
  },
  {
    files: ['electron/core/**', 'electron/ports/**', 'electron/demo-service/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [electronRuntime],
          patterns: [
            {
              group: ['**/adapters/**', '**/cli/**'],
              message: 'Core code receives adapters through ports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/cli/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              ...electronRuntime,
              allowTypeImports: false,
              message: 'The CLI runs in plain Node: no Electron.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared/ runs on both sides: no Electron.' }],
          patterns: [
            { group: ['node:*'], message: 'shared/ runs on both sides: no Node built-ins.' },
            {
              group: ['**/electron/**', '**/renderer/**'],
              message: 'shared/ imports neither side.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-restricted-imports': ['error', rendererImports()] },
  },
  {
    files: ['renderer/store/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        rendererImports({
          group: ['**/features/**'],
          message: 'The store serves the features: move what both need to store/, lib/ or shared/.',
        }),
      ],
    },
  },
  {
    files: ['renderer/lib/**', 'renderer/components/**', 'renderer/i18n/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        rendererImports({
          group: ['**/features/**', '**/store', '**/store/**'],
          message:
            'lib/, components/ and i18n/ sit under the store and the features: pass data in.',
        }),
      ],
    },
  },
  {
    // Electron glue may use Electron, but not raw IPC.
    files: ['electron/main.ts', 'electron/window.ts', 'electron/adapters/**', 'electron/build/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [rawIpc] }] },
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
