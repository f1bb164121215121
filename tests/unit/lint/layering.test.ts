/**
 * The layering rules are lint errors, not review comments: each crossing below must be reported
 * by the project's own ESLint config, and the allowed forms must pass. Every row of the layer
 * table in eslint.config.js has at least one import it may not make and one it may.
 */
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

/** The rules that draw the layers (a file that does not parse still says so). */
const LAYER_RULES = new Set([
  'local/code-layering',
  'no-restricted-syntax',
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
]);
/**
 * The project's config with only its layer rules run: each of the 600 files here was linted by
 * every rule, twice the CPU, where the other rules judge the project's own files in the lint
 * stage.
 */
const eslint = new ESLint({ cwd: REPO_ROOT, ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId) });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, path) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

/** A module that imports `name` from `source` (as a type when `type`) and uses it. */
function importing(source: string, name = 'x', type = false): string {
  return type
    ? `import type { ${name} } from '${source}';\nexport type T = ${name};\n`
    : `import { ${name} } from '${source}';\nexport const v = ${name};\n`;
}

interface Row {
  readonly layer: string;
  readonly electron: string;
  readonly may: readonly string[];
}

/** The table as the config hands it to the rule. */
async function layerTable(): Promise<Row[]> {
  const config = (await eslint.calculateConfigForFile(join(REPO_ROOT, 'shared/x.ts'))) as {
    rules: Record<string, [unknown, { layers: Row[] }]>;
  };
  const rule = config.rules['local/code-layering'];
  if (!rule) throw new Error('local/code-layering is not configured for shared/');
  return rule[1].layers;
}

/** The core's modules, bottom first, as eslint.config.js orders them (CORE_MODULES). */
const CORE_ORDER = [
  'errors',
  'base',
  'command-line',
  'fs',
  'secrets',
  'workflows',
  'param-schemas',
  'logging',
  'history',
  'lineage',
  'templates',
  'images',
  'service',
  'credentials',
  'key-vault',
  'settings',
  'content-credentials',
  'gallery',
  'download',
  'inputs',
  'engine',
  'costs',
  'library',
  'trash',
  'triage',
  'batch',
  'fan-out',
  'compare',
  'edit',
  'operations',
  'self-test',
];
const GALLERY = CORE_ORDER.indexOf('gallery');

/** Each core module's `may` list: the modules it uses, as the config hands them to the rule. */
const CORE_USES = new Map(
  (await layerTable())
    .filter((row) => row.layer.startsWith('electron/core/'))
    .map((row) => [
      row.layer.slice('electron/core/'.length),
      row.may.filter((name) => name.startsWith('electron/core/')).map((name) => name.slice(14)),
    ]),
);

/**
 * A row per core module: it may not import a module off its `may` list (nor, at the top, the
 * assembled core), nor reach past the face of one on it (a deep import), nor its own face; it may
 * import the face of a module on its list, and its own files.
 */
function coreRows(): { layer: string; file: string; denied: string[]; allowed: string[] }[] {
  const modules = CORE_ORDER.map((name) => {
    const uses = CORE_USES.get(name) ?? [];
    const unused = CORE_ORDER.find((other) => other !== name && !uses.includes(other));
    const used = uses[0];
    return {
      layer: `electron/core/${name}`,
      file: `electron/core/${name}/x.ts`,
      denied: [
        importing(`../${unused ?? 'pictor-core'}`),
        importing(`../${unused ?? 'pictor-core'}`, 'x', true),
        importing('../../adapters/system-clock', 'systemClock'),
        importing('./index'),
        importing('.', 'x', true),
        ...(used ? [importing(`../${used}/x`), importing(`../${used}/x`, 'x', true)] : []),
      ],
      allowed: [
        used ? importing(`../${used}`) : importing('../../ports/clock', 'Clock', true),
        used ? importing(`../${used}/index`, 'x', true) : importing('../../../shared/x', 'x'),
        importing(`./y`),
      ],
    };
  });
  return [
    ...modules,
    {
      layer: 'electron/core/pictor-core.ts',
      file: 'electron/core/pictor-core.ts',
      denied: [
        importing('../adapters/system-clock', 'systemClock'),
        importing('../ipc/wire-app', 'wireApp'),
        importing('./self-test/self-test', 'runSelfTest'),
        importing('./errors/thrown-value', 'messageOf'),
      ],
      allowed: [importing('./self-test', 'runSelfTest'), importing('./errors', 'messageOf')],
    },
  ];
}

/** The page's features, as eslint.config.js lists them (RENDERER_FEATURES). */
const FEATURES = ['compare', 'compose', 'costs', 'edit', 'gallery', 'settings', 'tasks'];

/**
 * A row per feature: it may not import another feature (any of them, value or type), the window
 * around it, nor the main side; it may import the rooms under it and itself.
 */
function featureRows(): { layer: string; file: string; denied: string[]; allowed: string[] }[] {
  return FEATURES.map((name) => ({
    layer: `renderer/features/${name}`,
    file: `renderer/features/${name}/x.tsx`,
    denied: [
      ...FEATURES.filter((other) => other !== name).flatMap((other) => [
        importing(`../${other}/x`),
        importing(`../${other}/x`, 'X', true),
      ]),
      importing('../../app', 'App'),
      importing('../../shell/status-area', 'StatusArea'),
      importing('electron', 'shell'),
      importing('node:path', 'join'),
      importing('../../../electron/core/engine/task-engine', 'TaskEngine', true),
      importing('../../../electron/preload', 'PictorApi', true),
    ],
    allowed: [
      importing('./y'),
      importing('../../store/app-store', 'useAppStore'),
      importing('../../store/use-focus-request', 'useFocusRequest'),
      importing('../../components/button', 'Button'),
      importing('../../lib/undo-key', 'isUndoKey'),
      importing('../../i18n', 't'),
      importing('../../../shared/ipc/api', 'PictorApi', true),
      importing('react', 'useState'),
    ],
  }));
}

/** Per row of the table: a file in it, imports it may not make, and imports it may. */
const rows: readonly {
  layer: string;
  file: string;
  denied: readonly string[];
  allowed: readonly string[];
}[] = [
  {
    layer: 'shared',
    file: 'shared/x.ts',
    denied: [
      importing('node:fs', 'readFileSync'),
      importing('fs', 'readFileSync'),
      importing('electron', 'App', true),
      importing('../electron/core/engine/task-engine', 'TaskEngine'),
      importing('../electron/ports/clock', 'Clock', true),
      importing('../renderer/lib/api', 'api'),
    ],
    allowed: [importing('./domain/limits', 'MAX_COUNT')],
  },
  {
    layer: 'electron/ports',
    file: 'electron/ports/x.ts',
    denied: [
      importing('electron', 'net'),
      importing('../core/errors/thrown-value', 'messageOf'),
      importing('../adapters/system-clock', 'systemClock'),
    ],
    allowed: [
      importing('electron', 'Net', true),
      importing('../../shared/ipc/contract', 'Result', true),
      importing('./clock', 'Clock', true),
    ],
  },
  ...coreRows().slice(0, GALLERY),
  {
    layer: 'electron/core/gallery',
    file: 'electron/core/gallery/x.ts',
    denied: [
      importing('electron', 'app'),
      "import electron from 'electron';\nexport const e = electron;\n",
      importing('../../adapters/system-clock', 'systemClock'),
      importing('../../ipc/wire-app', 'wireApp'),
      importing('../../cli/commands', 'runCommand'),
      importing('../../demo-service/server', 'startDemoService'),
      importing('../../app/app-runtime', 'AppRuntime'),
      importing('../../app/os/menu-template', 'buildMenu'),
      importing('../../../tests/fakes/manual-clock', 'ManualClock'),
      'export type A = typeof import("../../adapters/system-clock");\n',
      "export const load = () => import('../../adapters/system-clock');\n",
      importing('../errors/thrown-value', 'messageOf'),
      importing('../images/image-sniff', 'sniffImage'),
      "export { sniffImage } from '../images/image-sniff';\n",
      'export type A = typeof import("../images/image-sniff");\n',
      "export const load = () => import('../images/image-sniff');\n",
      importing('./index', 'Gallery'),
    ],
    allowed: [
      importing('electron', 'App', true),
      "import { type App } from 'electron';\nexport type A = App;\n",
      importing('node:fs', 'readFileSync'),
      importing('../../ports/clock', 'Clock', true),
      importing('../errors', 'messageOf'),
      importing('../images', 'sniffImage'),
      importing('../../../shared/domain/limits', 'MAX_COUNT'),
    ],
  },
  ...coreRows().slice(GALLERY + 1),
  {
    layer: 'electron/demo-service',
    file: 'electron/demo-service/x.ts',
    denied: [
      importing('electron', 'app'),
      importing('../adapters/node-fetch', 'createNodeFetch'),
      importing('../app/app-runtime', 'AppRuntime'),
      importing('../ipc/wire-app', 'wireApp'),
      importing('../core/errors/thrown-value', 'messageOf'),
    ],
    allowed: [importing('../core/errors', 'messageOf'), importing('./server')],
  },
  {
    layer: 'electron/demo-service/cli.ts',
    file: 'electron/demo-service/cli.ts',
    denied: [
      importing('electron', 'app'),
      importing('../app/app-runtime', 'AppRuntime'),
      importing('../ipc/wire-app', 'wireApp'),
    ],
    allowed: [
      importing('./server', 'startDemoService'),
      importing('../adapters/image-engines/plain-node-engine', 'plainNodeImageEngine'),
    ],
  },
  {
    layer: 'electron/app',
    file: 'electron/app/os/x.ts',
    denied: [
      importing('electron', 'app'),
      importing('../../adapters/system-clock', 'systemClock'),
      importing('../../ipc/wire-app', 'wireApp'),
      importing('../../demo-service/server', 'startDemoService'),
      importing('../app-runtime', 'AppRuntime'),
      importing('sharp', 'Sharp', true),
    ],
    allowed: [
      importing('electron', 'App', true),
      importing('../../core/pictor-core', 'PictorCore', true),
      importing('../i18n/main-text', 'mainText'),
      importing('yaml', 'parse'),
    ],
  },
  {
    layer: 'electron/app/app-runtime',
    file: 'electron/app/app-runtime.ts',
    denied: [
      importing('../adapters/system-clock', 'systemClock'),
      importing('../ipc/wire-app', 'wireApp'),
      importing('electron', 'app'),
    ],
    allowed: [
      importing('../demo-service/server', 'startDemoService'),
      importing('../core/pictor-core', 'openPictorCore'),
      importing('./app-credentials', 'AppCredentials'),
    ],
  },
  {
    layer: 'electron/adapters',
    file: 'electron/adapters/x.ts',
    denied: [
      importing('electron', 'ipcMain'),
      importing('electron', 'ipcRenderer'),
      "import * as electron from 'electron';\nexport const e = electron;\n",
      "export { ipcMain } from 'electron';\n",
      "declare const win: { webContents: { send(c: string): void } };\nwin.webContents.send('x');\n",
      importing('../ipc/wire-app', 'wireApp'),
      importing('../cli/commands', 'runCommand'),
      importing('../app/app-runtime', 'AppRuntime'),
      importing('../window', 'createWindow'),
    ],
    allowed: [
      importing('electron', 'shell'),
      importing('electron', 'IpcMain', true),
      importing('../app/os/menu-template', 'buildMenu'),
      importing('./system-clock', 'systemClock'),
    ],
  },
  {
    layer: 'electron/ipc',
    file: 'electron/ipc/x.ts',
    denied: [
      importing('../adapters/system-clock', 'systemClock'),
      importing('../app/app-runtime', 'AppRuntime'),
      importing('../cli/commands', 'runCommand'),
    ],
    allowed: [
      importing('electron', 'ipcMain'),
      "declare const win: { webContents: { send(c: string): void } };\nwin.webContents.send('x');\n",
      importing('../core/pictor-core', 'PictorCore', true),
      importing('../../shared/ipc/contract', 'Result', true),
    ],
  },
  {
    layer: 'electron/cli',
    file: 'electron/cli/x.ts',
    denied: [
      importing('electron', 'App', true),
      importing('electron', 'app'),
      importing('../ipc/wire-app', 'wireApp'),
      importing('../app/app-runtime', 'AppRuntime'),
    ],
    allowed: [
      importing('../adapters/node-fetch', 'createNodeFetch'),
      importing('../core/pictor-core', 'openPictorCore'),
      importing('node:process', 'argv'),
      // `--provider demo` runs the built-in demo service in the CLI's own process.
      importing('../demo-service/server', 'startDemoService'),
    ],
  },
  {
    layer: 'electron/build',
    file: 'electron/build/x.ts',
    denied: [
      importing('electron', 'ipcMain'),
      importing('../adapters/system-clock', 'systemClock'),
      importing('../core/content-credentials/trust-anchors', 'readTrustAnchors'),
    ],
    allowed: [importing('../core/errors', 'messageOf'), importing('electron', 'app')],
  },
  {
    layer: 'electron/window.ts',
    file: 'electron/window.ts',
    denied: [importing('./ipc/install-ipc', 'installIpc'), importing('electron', 'ipcMain')],
    allowed: [importing('./adapters/window-guards', 'hardenApp'), importing('electron', 'screen')],
  },
  {
    layer: 'electron/preload.ts',
    file: 'electron/preload.ts',
    denied: [importing('./core/pictor-core', 'PictorCore', true), importing('./ipc/wire-app', 'x')],
    allowed: [importing('electron', 'ipcRenderer'), importing('../shared/ipc/contract', 'Result')],
  },
  {
    layer: 'electron/image-preload.ts',
    file: 'electron/image-preload.ts',
    denied: [
      importing('./core/images/renderer-jobs', 'RendererJobs'),
      importing('node:fs', 'readFileSync'),
    ],
    allowed: [
      importing('electron', 'ipcRenderer'),
      importing('../shared/image-renderer/protocol', 'IMAGE_PORT_MESSAGE'),
    ],
  },
  {
    layer: 'electron/image-renderer',
    file: 'electron/image-renderer/x.ts',
    denied: [
      importing('electron', 'ipcRenderer'),
      importing('electron', 'MessagePortMain', true),
      importing('node:fs', 'readFileSync'),
      importing('../core/images/renderer-answers', 'parseRendererAnswer'),
      importing('../../renderer/lib/api', 'api'),
    ],
    allowed: [
      importing('./image-size', 'storedSize'),
      importing('../../shared/image-renderer/protocol', 'PageAnswer', true),
    ],
  },
  {
    layer: 'electron/cli-host.ts',
    file: 'electron/cli-host.ts',
    denied: [importing('./adapters/system-clock', 'systemClock'), importing('electron', 'ipcMain')],
    allowed: [importing('./cli/cli-io', 'CliIo', true), importing('electron', 'App', true)],
  },
  {
    layer: 'electron/host',
    file: 'electron/host/x.ts',
    denied: [
      importing('electron', 'ipcMain'),
      importing('../cli/commands', 'runCommand'),
      importing('../app-main', 'startApp'),
      importing('../demo-service/server', 'startDemoService'),
    ],
    allowed: [
      importing('../app/app-runtime', 'AppRuntime'),
      importing('../ipc/wire-app', 'wireApp'),
      importing('../window', 'createMainWindow'),
      importing('../adapters/system-clock', 'systemClock'),
      importing('electron', 'app'),
    ],
  },
  {
    layer: 'electron/app-main.ts',
    file: 'electron/app-main.ts',
    denied: [
      importing('electron', 'ipcMain'),
      importing('./cli/commands', 'runCommand'),
      importing('./main', 'x'),
      importing('./ipc/wire-app', 'wireApp'),
    ],
    allowed: [
      importing('./host/desktop-host', 'desktopHost'),
      importing('./app/app-environment', 'readAppEnvironment'),
      importing('./window', 'createWindow'),
      importing('electron', 'app'),
    ],
  },
  {
    layer: 'electron/main.ts',
    file: 'electron/main.ts',
    denied: [importing('electron', 'ipcRenderer'), importing('./preload', 'api')],
    allowed: [
      importing('./app-main', 'startApp'),
      importing('./cli-host', 'runAsCommandLine'),
      importing('./adapters/stream-logger', 'streamLogger'),
    ],
  },
  {
    layer: 'renderer/i18n',
    file: 'renderer/i18n/x.ts',
    denied: [importing('../lib/api', 'api'), importing('../store/app-store', 'useAppStore')],
    allowed: [importing('./en/common', 'common'), importing('../../shared/domain/limits', 'x')],
  },
  {
    layer: 'renderer/lib',
    file: 'renderer/lib/x.ts',
    denied: [
      importing('../components/button', 'Button'),
      importing('../store/app-store', 'useAppStore'),
      importing('../store', 'useAppStore'),
      importing('../features/tasks/task-row', 'TaskRow'),
    ],
    allowed: [importing('../i18n', 't'), importing('./api', 'api')],
  },
  {
    layer: 'renderer/components',
    file: 'renderer/components/x.tsx',
    denied: [
      importing('../store/app-store', 'useAppStore'),
      importing('../features/tasks/task-row', 'TaskRow'),
    ],
    allowed: [importing('../i18n', 't'), importing('../lib/use-now', 'useNow')],
  },
  {
    layer: 'renderer/store',
    file: 'renderer/store/x.ts',
    denied: [
      importing('../features/tasks/task-row', 'TaskRow'),
      importing('../app', 'App'),
      importing('../shell/status-area', 'StatusArea'),
      importing('node:path', 'join'),
    ],
    allowed: [
      importing('../components/live-region', 'announce'),
      importing('../lib/api', 'api'),
      importing('react', 'useEffect'),
    ],
  },
  ...featureRows(),
  {
    layer: 'renderer/styles',
    file: 'renderer/styles/x.ts',
    denied: [importing('../lib/api', 'api')],
    allowed: ["import './tokens.css';\n"],
  },
  {
    layer: 'renderer',
    file: 'renderer/x.ts',
    denied: [
      importing('electron', 'shell'),
      importing('node:path', 'join'),
      importing('../electron/core/engine/task-engine', 'TaskEngine', true),
    ],
    allowed: [
      importing('./features/tasks/task-list', 'TaskList'),
      importing('./features/gallery/task-image-viewer', 'TaskImageViewer'),
      importing('./shell/status-area', 'StatusArea'),
      "import './styles/base.css';\n",
    ],
  },
];

describe('layering lint rules', () => {
  it('has denied and allowed imports for every row of the table, and only for its rows', async () => {
    const table = (await layerTable()).map((row) => row.layer);
    expect(rows.map((row) => row.layer)).toEqual(table);
    for (const row of rows) {
      expect(row.denied.length, row.layer).toBeGreaterThan(0);
      expect(row.allowed.length, row.layer).toBeGreaterThan(0);
    }
  });

  it('is directional: no row reaches itself through what it may import', async () => {
    const table = await layerTable();
    const may = new Map(table.map((row) => [row.layer, row.may]));
    const reaches = (from: string, seen = new Set<string>()): Set<string> => {
      for (const next of may.get(from) ?? []) {
        if (!seen.has(next)) reaches(next, seen.add(next));
      }
      return seen;
    };
    for (const row of table) expect(reaches(row.layer).has(row.layer), row.layer).toBe(false);
    for (const row of table) {
      for (const name of row.may) expect(may.has(name), `${row.layer} → ${name}`).toBe(true);
    }
  });

  it.each(rows.flatMap((row) => row.denied.map((code) => [row.layer, row.file, code] as const)))(
    'reports `%s` (%s) crossing its layer: %s',
    async (_layer, path, code) => {
      expect((await problems(path, code)).join('\n')).toMatch(
        /local\/code-layering|no-restricted-syntax/,
      );
    },
  );

  it.each(rows.flatMap((row) => row.allowed.map((code) => [row.layer, row.file, code] as const)))(
    'allows `%s` (%s): %s',
    async (_layer, path, code) => {
      expect(await problems(path, code)).toEqual([]);
    },
  );

  it('says what the layer may import', async () => {
    const [message] = await problems(
      'electron/core/base/x.ts',
      importing('../../adapters/system-clock', 'systemClock'),
    );
    expect(message).toBe(
      'local/code-layering: `electron/core/base` (generic building blocks: the operation runner, ' +
        'the process timers, work limits) may import only shared, electron/ports, ' +
        'electron/core/errors, electron/core/base, Node built-ins, the packages zod, yaml, yauzl, ' +
        "yazl, @contentauth/c2pa-wasm, Electron as types only; '../../adapters/system-clock' is in " +
        '`electron/adapters`.',
    );
  });

  it("says which face a deep import of another module's files should go through", async () => {
    expect(
      await problems('electron/ipc/x.ts', importing('../core/gallery/gallery-images', 'x')),
    ).toEqual([
      "local/code-layering: '../core/gallery/gallery-images' is inside `electron/core/gallery`: " +
        'import it through its face (electron/core/gallery/index.ts, ' +
        'electron/core/gallery/gallery-face.ts), not its own files.',
    ]);
    expect(await problems('electron/ipc/x.ts', importing('../core/gallery', 'x'))).toEqual([]);
    expect(await problems('electron/ipc/x.ts', importing('../core/gallery/index.ts', 'x'))).toEqual(
      [],
    );
  });

  it("says a module's files do not import their own face", async () => {
    expect(
      await problems('electron/core/gallery/metadata/x.ts', importing('../index', 'x')),
    ).toEqual([
      "local/code-layering: '../index' is the face of `electron/core/gallery`, this file's own " +
        'module: its files import one another directly (through the face would make a circle).',
    ]);
  });

  it("says which feature's room an import leaves", async () => {
    const [message] = await problems(
      'renderer/features/tasks/x.tsx',
      importing('../gallery/gallery-viewer', 'GalleryViewer'),
    );
    expect(message).toBe(
      'local/code-layering: `renderer/features/tasks` (the Tasks screen: the history, its rows, ' +
        'details and actions) may import only shared, renderer/i18n, renderer/lib, ' +
        'renderer/components, renderer/store, renderer/features/tasks, the packages react, ' +
        "react-dom, zustand; '../gallery/gallery-viewer' is in " +
        '`renderer/features/gallery`.',
    );
  });

  it('reports a product file that is in no row of the table', async () => {
    expect(await problems('electron/new-REPO_ROOT.ts', 'export const a = 1;\n')).toEqual([
      "local/code-layering: 'electron/new-REPO_ROOT.ts' is in no row of the layer table in eslint.config.js: add it to one.",
    ]);
  });

  it.each([
    [
      'tests/unit/core/x.test.ts',
      "import { mean } from '../../bench/engine/stats';\nexport const m = mean;\n",
    ],
    [
      'tests/hardening/faults/x.ts',
      "import { benchRecord } from '../../bench/history-fixture';\nexport const b = benchRecord;\n",
    ],
  ])('reports %s importing bench code', async (path, code) => {
    expect((await problems(path, code)).join('\n')).toMatch(/no-restricted-imports/);
  });

  it.each([
    [
      'tests/unit/core/x.test.ts',
      "import { maxInWindow } from '../../support/bursts';\nexport const m = maxInWindow;\n",
    ],
    ['tests/bench/x.ts', "import { mean } from './engine/stats';\nexport const m = mean;\n"],
    [
      'tests/unit/core/x.test.ts',
      "import { app, ipcMain } from 'electron';\nimport { systemClock } from '../../../electron/adapters/system-clock';\nexport const a = [app, ipcMain, systemClock];\n",
    ],
  ])('allows %s', async (path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});
