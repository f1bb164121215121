/**
 * What a one-record command of the bundled CLI loads and starts (a command line that
 * starts like a tool): `pictor rate` and `pictor list --json` open the core, and the core opens
 * the parts they do not use when first used. The CLI runs as a process of its own with a preload
 * that records every module loaded (its chunks, node_modules' files) and every thread started:
 * neither command loads zod's files (the bundle inlines zod), sharp, the archive's ZIP libraries
 * (yazl, yauzl), the built-in demo's server or Node's crypto code (neither makes an unguessable
 * name: `rate`'s hold on the library is named in a private folder), nor starts the history
 * worker (a second isolate loading the history again). The same preload sees `export` load yazl, an import of zod from
 * node_modules load its files, and a plain Node start a worker, so an empty record is not the
 * preload seeing nothing. Nor does either build the zod schemas of the cost and edit screens' IPC
 * contracts, told by the sources each loaded chunk names. `list` reads the history alone: no
 * other part of the core is loaded. `rate` changes the library without the network: neither
 * Node's network modules nor the service client, its providers, the engine, downloads or the
 * core's assembly are loaded, nor, when it changes no image, the gallery's XMP code. Both load
 * only the parts of zod Pictor's schemas use (electron/build/zod-shaken.ts). Neither builds the
 * task record's schema or the request's (with its images, Content Credentials, inputs and
 * workflows: about 250 of the 690 zod schemas `list --json` built at start, now built on first
 * use, shared/domain/lazy-schema.ts), which only a record the history's plain check leaves to zod
 * needs; nor any other zod schema: every one of the modules they load is built on first use, so
 * zod's own code is not compiled at start either. Nor does either make the key-echo views'
 * table of the characters that show nothing, which only a scrub of a key reads.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRUNED_MARK } from '../../../electron/cli/compile-cache';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { encodePng } from '../../../electron/demo-service/png-codec';
import { makeTaskRecord } from '../../support/task-records';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { childEnv, REPO_ROOT } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/**
 * The preload that records what the CLI loads and starts (one-record-recorder.mjs: `load`,
 * `worker`, `built`, `schema` and `table` lines to fd 3).
 */
const RECORDER = pathToFileURL(join(import.meta.dirname, 'one-record-recorder.mjs')).href;

interface Recorded {
  readonly code: number | null;
  readonly stderr: string;
  /** What the preload wrote: `load <url>` and `worker <url>` lines. */
  readonly lines: readonly string[];
}

/** `node <args>` with the recorder preloaded; `env` over the CLI's child environment. */
async function recorded(
  args: readonly string[],
  home: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Recorded> {
  const child = spawn(process.execPath, ['--import', RECORDER, ...args], {
    cwd: REPO_ROOT,
    env: { ...childEnv({ home }), ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let record = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdio[3]?.on('data', (chunk: Buffer) => (record += chunk.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr, lines: record.split('\n').filter((line) => line !== '') };
}

/** What a one-record command must not load or start. */
const UNUSED = [
  // Inlined in the bundle (build-electron.ts): from node_modules, its ~100 files cost a start
  // twice the CPU of the same code in one chunk.
  { what: "zod's files", line: /^load .*\/node_modules\/zod\// },
  { what: 'sharp', line: /^load .*\/node_modules\/(sharp|@img)\// },
  { what: 'the ZIP libraries', line: /^load .*\/node_modules\/(yazl|yauzl)\// },
  { what: "the built-in demo's server", line: /^load .*\/(server|demo-service)[^/]*\.js$/ },
  { what: 'a worker thread', line: /^worker / },
  // Node's modules for what neither command does (hashing, random names, streams, the heap's
  // release): each loads when first used, node:crypto alone about 10 ms of CPU. (The recorder
  // itself loads node:worker_threads; a thread started is the line above.)
  {
    what: 'a Node module it does not use',
    line: /^load node:(crypto|stream|v8|vm)$/,
  },
  // node:crypto however reached (process.getBuiltinModule too), about 10 ms of CPU: `rate` loaded
  // it for the name of its hold on the library (core/fs/temp-names.ts), which needs none.
  { what: "Node's crypto code", line: /^builtin crypto$/ },
];

function startedUnused(lines: readonly string[]): string[] {
  return UNUSED.flatMap(({ what, line }) =>
    lines.filter((entry) => line.test(entry)).map((entry) => `${what}: ${entry}`),
  );
}

/**
 * Sources whose zod schemas a one-record command must not build: the IPC contracts of the cost
 * and edit screens (the core needs one constant and one target schema of them: limits.ts,
 * edit-target.ts). A bundle's chunk names each module it holds in a `// <source>` line.
 */
const UNUSED_SOURCES =
  /^\/\/ (shared\/ipc\/(cost-contract|inputs-contract|fan-out-contract|selection-schemas)\.ts)$/gm;

/**
 * The sources matching `pattern` in the bundle's files `lines` say were loaded, or in every file
 * of the bundle.
 */
async function sourcesIn(
  bundle: string,
  lines?: readonly string[],
  pattern: RegExp = UNUSED_SOURCES,
): Promise<string[]> {
  const prefix = `load ${pathToFileURL(bundle).href}/`;
  const files =
    lines === undefined
      ? (await readdir(bundle)).filter((name) => name.endsWith('.js'))
      : lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
  const found = new Set<string>();
  for (const file of files) {
    const text = await readFile(join(bundle, file), 'utf8');
    for (const [, source = ''] of text.matchAll(pattern)) found.add(source);
  }
  return [...found].sort();
}

/**
 * The core beyond the history: its assembly (pictor-core.ts) and the parts `list` does not use
 * (the engine, the service client, the gallery, downloads, images, costs, the library's moves and
 * archives, the trash), each told by its sources' `// <source>` lines.
 */
const CORE_BEYOND_HISTORY =
  /^\/\/ (electron\/core\/(?:pictor-core\.ts|(?:engine|service|gallery|download|images|costs|library|trash|content-credentials)\/[\w/.-]+\.ts))$/gm;

/**
 * What `list` does not read a page with: the files that read other commands' option values and
 * what they load (the models' option schemas, the template expander, compare's targets), and the
 * settings and updates schemas (a service's name needs neither). Every command's option table is
 * in cli-args.ts, the name's rules in service-name.ts.
 */
const NOT_FOR_LIST =
  /^\/\/ ((?:shared\/domain\/(?:model-param-schemas[\w-]*|template-expand|settings|update-state)|electron\/cli\/(?:param-args|template-run-args|compare-args))\.ts)$/gm;

/**
 * What a change of triage does not use: the core's assembly and its parts that talk to services
 * or run tasks (the service client and its providers, the engine beyond its sidecar writes,
 * downloads, content credentials, costs, inputs, edits, the models' options), and the adapters
 * but the log and the clock (the HTTP client, the image engines).
 */
const NOT_FOR_RATE =
  /^\/\/ (electron\/(?:core\/(?:pictor-core\.ts|(?:service|download|content-credentials|costs|inputs|edit|param-schemas)\/[\w/.-]+\.ts|engine\/(?!triage-sidecars|sidecar-writer|sidecar-records|bounded-wait)[\w-]+\.ts)|adapters\/(?!stream-logger|system-clock)[\w/.-]+\.ts))$/gm;

/** The triage actions and the sidecar writer, the code a rating must run. */
const SIDECAR_WRITES =
  /^\/\/ (electron\/core\/(?:engine\/sidecar-writer|triage\/triage-actions)\.ts)$/gm;

/**
 * The gallery's XMP code: the sidecars' sync, the PNG, JPEG and WebP metadata readers and writers
 * and the image headers they read (not the few lines that tell an XMP packet's own triage).
 */
const XMP_CODE =
  /^\/\/ (electron\/core\/(?:gallery\/metadata\/(?:xmp-sidecar-sync|read|container|(?:png|jpeg|webp)-meta)|images\/[\w/.-]+)\.ts)$/gm;

/**
 * The parts of zod no module of Pictor's calls: the JSON-schema reader and writer, the schema
 * compiler, `z.coerce`. Bundled whole they were half of the chunk every command loads.
 */
const ZOD_UNUSED =
  /^\/\/ (.*node_modules\/zod\/v4\/(?:classic\/(?:from-json-schema|coerce)|core\/(?:json-schema-generator|compile))\.js)$/gm;

/** Node's network modules: `load node:net` and the like. */
const NETWORK_MODULES = /^load node:(?:net|tls|https?|http2|dns(?:\/promises)?|dgram)$/;

const LOCAL_ID = 'd00d0000-0000-4000-8000-000000000001';
/** The task's one image, saved (its file is not in the gallery). */
const IMAGE = {
  index: 0,
  url: 'https://cdn.example.com/0.png',
  state: 'saved',
  file: '2025/01/t1/image-1.png',
  attempts: 1,
  favourite: false,
} as const;
let dir: string;
let dataDir: string;
let cli: string[];

beforeAll(async () => {
  dir = await tempFolder('one-record');
  dataDir = join(dir, 'library');
  await mkdir(dataDir, { mode: 0o700 });
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE));
  try {
    store.putMany([makeTaskRecord({ localId: LOCAL_ID, images: [IMAGE] })]);
  } finally {
    store.close();
  }
  cli = [...nodeEntryArgs('cli'), '--gallery-dir', join(dir, 'gallery'), '--data-dir', dataDir];
});

afterAll(async () => {
  await removeFolder(dir);
});

/**
 * The commands the checks below read, each recorded once for the file (a start of the bundle
 * with the recorder is about 0.2 s of CPU; the checks read the same record). `rate` changes the
 * one image's rating (the settings check below rates it again, to 2); `board ls` opens the whole
 * core.
 */
const shared = new Map<string, Promise<Recorded>>();
function recordedOnce(args: readonly string[]): Promise<Recorded> {
  const key = args.join(' ');
  let run = shared.get(key);
  if (run === undefined) {
    run = recorded([...cli, ...args], dir);
    shared.set(key, run);
  }
  return run;
}
const RATE = ['rate', LOCAL_ID, '3'];
const LIST = ['list', '--json'];
const BOARD_LS = ['board', 'ls'];

describe('a one-record command of the bundled CLI', () => {
  it.each([
    ['rate', RATE, 'triage-command'],
    ['list', LIST, 'list-command'],
  ])(
    "%s loads neither zod's files, sharp, the archive, the demo nor Node's modules it does not use, and starts no thread",
    async (_name, args, file) => {
      const run = await recordedOnce(args);
      expect(run.code, run.stderr).toBe(0);
      // The recorder saw the command's own chunk load.
      expect(run.lines.some((line) => line.includes(`/${file}-`))).toBe(true);
      expect(startedUnused(run.lines)).toEqual([]);
    },
  );

  it.each([
    ['rate', RATE],
    ['list', LIST],
  ])(
    "%s builds none of the cost or edit screens' contracts and loads only the parts of zod Pictor uses",
    async (_name, args) => {
      const run = await recordedOnce(args);
      expect(run.code, run.stderr).toBe(0);
      const bundle = dirname(cli[0] ?? '');
      expect(await sourcesIn(bundle, run.lines)).toEqual([]);
      // The check itself: the bundle holds them, each named in its chunk.
      expect(await sourcesIn(bundle)).toEqual([
        'shared/ipc/cost-contract.ts',
        'shared/ipc/fan-out-contract.ts',
        'shared/ipc/inputs-contract.ts',
        'shared/ipc/selection-schemas.ts',
      ]);
      expect(await sourcesIn(bundle, run.lines, ZOD_UNUSED)).toEqual([]);
      // The check itself: zod's classic API, which its entry re-exports as `z`, holds them.
      const classic = await readFile(
        join(REPO_ROOT, 'node_modules/zod/v4/classic/external.js'),
        'utf8',
      );
      expect(classic).toContain('from-json-schema');
      expect(classic).toContain('coerce');
    },
  );

  it.each([['--json'], ['--flag', 'pick']])(
    'list %s reads the history alone: none of the rest of the core is loaded',
    async (...args) => {
      const run = await recordedOnce(['list', ...args]);
      expect(run.code, run.stderr).toBe(0);
      const bundle = dirname(cli[0] ?? '');
      expect(await sourcesIn(bundle, run.lines, CORE_BEYOND_HISTORY)).toEqual([]);
      // The check itself: board ls, which opens the whole core, loads them.
      const boards = await recordedOnce(BOARD_LS);
      expect(boards.code, boards.stderr).toBe(0);
      const loaded = await sourcesIn(bundle, boards.lines, CORE_BEYOND_HISTORY);
      expect(loaded).toContain('electron/core/pictor-core.ts');
      expect(loaded).toContain('electron/core/engine/task-engine.ts');
    },
  );

  it('rate loads neither the network modules, the service client, the engine nor the adapters', async () => {
    const run = await recordedOnce(RATE);
    expect(run.code, run.stderr).toBe(0);
    const bundle = dirname(cli[0] ?? '');
    expect(run.lines.filter((line) => NETWORK_MODULES.test(line))).toEqual([]);
    expect(await sourcesIn(bundle, run.lines, NOT_FOR_RATE)).toEqual([]);
    // It wrote the rating through the core's triage actions and sidecar writer.
    expect(await sourcesIn(bundle, run.lines, SIDECAR_WRITES)).toEqual([
      'electron/core/engine/sidecar-writer.ts',
      'electron/core/triage/triage-actions.ts',
    ]);
    // The check itself: board ls, which opens the whole core, loads them.
    const boards = await recordedOnce(BOARD_LS);
    expect(boards.code, boards.stderr).toBe(0);
    expect(boards.lines.filter((line) => NETWORK_MODULES.test(line))).toContain('load node:net');
    const loaded = await sourcesIn(bundle, boards.lines, NOT_FOR_RATE);
    expect(loaded).toContain('electron/core/service/service-client.ts');
    expect(loaded).toContain('electron/adapters/node-fetch.ts');
  });

  it('rate loads the XMP code only when it writes an XMP sidecar, and builds no schema for it', async () => {
    // A library of its own: a task with a folder, whose triage the gallery keeps in files.
    const library = join(dir, 'xmp-library');
    await mkdir(library, { mode: 0o700 });
    const store = HistoryStore.open(join(library, HISTORY_FILE));
    try {
      store.putMany([makeTaskRecord({ localId: LOCAL_ID, folder: '2025/01/t1', images: [IMAGE] })]);
    } finally {
      store.close();
    }
    // The image is in the gallery (a real PNG), so a change of its triage writes its sidecar.
    const gallery = join(dir, 'xmp-gallery');
    await mkdir(join(gallery, '2025/01/t1'), { recursive: true });
    const rgba = new Uint8Array(4 * 4 * 4).fill(200);
    await writeFile(join(gallery, IMAGE.file), encodePng({ width: 4, height: 4, rgba }));
    const rateArgs = [...nodeEntryArgs('cli'), '--gallery-dir', gallery];
    const rate = (rating: string) =>
      recorded([...rateArgs, '--data-dir', library, 'rate', LOCAL_ID, rating], dir);
    const changed = await rate('4');
    expect(changed.code, changed.stderr).toBe(0);
    // The same rating again changes nothing: no sidecar is written.
    const same = await rate('4');
    expect(same.code, same.stderr).toBe(0);
    const bundle = dirname(cli[0] ?? '');
    expect(await sourcesIn(bundle, same.lines, XMP_CODE)).toEqual([]);
    // The check itself: the change loaded it.
    expect(await sourcesIn(bundle, changed.lines, XMP_CODE)).toContain(
      'electron/core/gallery/metadata/xmp-sidecar-sync.ts',
    );
    expect(await readFile(join(gallery, '2025/01/t1/image-1.xmp'), 'utf8')).toContain(
      '<xmp:Rating>4</xmp:Rating>',
    );
    // The change builds no zod schema: the XMP readers' (a packet's provenance) and the image
    // page's answers (renderer-answers.ts), loaded with the gallery's code, are built on first
    // use; a triage sidecar is written without them. They were 159 schemas.
    expect(changed.lines.filter((line) => line.startsWith('built '))).toEqual([]);
    console.log(
      'BUILT',
      changed.lines.filter((l) => l.startsWith('built ')).length,
      same.lines.filter((l) => l.startsWith('built ')).length,
    );
  });

  it("list loads neither the models' option schemas, the template expander nor settings", async () => {
    const run = await recordedOnce(LIST);
    expect(run.code, run.stderr).toBe(0);
    const bundle = dirname(cli[0] ?? '');
    expect(await sourcesIn(bundle, run.lines, NOT_FOR_LIST)).toEqual([]);
    // The check itself: the bundle holds them, each named in its chunk.
    expect(await sourcesIn(bundle, undefined, NOT_FOR_LIST)).toHaveLength(9);
  });

  it.each([
    ['list --json', LIST],
    ['rate', RATE],
    ['rate, changing nothing', RATE],
    ['rate, changing the rating', ['rate', LOCAL_ID, '5']],
  ])(
    "%s builds neither the task record's schema nor the request's (the models' options, inputs, workflows)",
    async (_name, args) => {
      const run = await recorded([...cli, ...args], dir);
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines.filter((line) => line.startsWith('schema '))).toEqual([]);
    },
  );

  it.each([
    ['list --json', LIST],
    // Changing the rating or not (the task has no folder: no XMP sidecar is written).
    ['rate', RATE],
  ])(
    '%s builds no zod schema at all, so zod compiles none of its code at start',
    async (_name, args) => {
      // Every schema of the modules a one-record command loads is built on first use
      // (shared/domain/lazy-schema.ts): at module level they were 554 (the record's parts, the
      // image inputs, triage deltas, templates, compares, costs, the worker's protocol, the
      // service's answers, sentences, dates, provider ids), about 15 ms of CPU with the first
      // compile of zod's own functions. A schema built at a module's top level shows here; find
      // which by `node --cpu-prof` or a breakpoint on zod's `_zod` define.
      const run = await recorded([...cli, ...args], dir);
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines.filter((line) => line.startsWith('built '))).toEqual([]);
    },
  );

  it.each([
    ['list --json', LIST],
    ['rate', RATE],
  ])(
    '%s makes no table of the characters that show nothing, which only a scrub of a key reads',
    async (_name, args) => {
      // Made at the key-echo views' load, it was a regular expression run over every UTF-16 code
      // unit, about 5 ms of CPU, in every command that loads the history (they load the views).
      const run = await recordedOnce(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines.filter((line) => line.startsWith('table '))).toEqual([]);
    },
  );

  it.each([
    ['list --json', LIST],
    ['rate', RATE],
  ])('%s makes no `require`: no chunk it loads calls one', async (_name, args) => {
    // Each chunk's banner made its own at load (electron/build/build-electron.ts), about fifty
    // module records, their paths and each chunk's import.meta: 1-2 ms of CPU for nothing.
    const run = await recordedOnce(args);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines.filter((line) => line === 'require made')).toEqual([]);
    // The check itself: a module that makes one is seen.
    const made = await recorded(
      [
        '--input-type=module',
        '-e',
        "import { createRequire } from 'node:module'; createRequire(import.meta.url);",
      ],
      dir,
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.lines.filter((line) => line === 'require made')).toEqual(['require made']);
  });

  it.each([
    ['list --json', LIST],
    ['rate', RATE],
  ])(
    "%s builds neither the rule of a user's word nor the scripts' tests, which no name it reads needs",
    async (_name, args) => {
      // Built when their modules loaded (triage, model options, file names; the hosts' scripts),
      // their property classes cost V8 ICU's tables: five word rules and 28 script tests were
      // about 8 % of `list --json`'s instructions. Now built when a word or a host is tested.
      const run = await recordedOnce(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines.filter((line) => line.startsWith('expression '))).toEqual([]);
      // The check itself: an expression of either kind built is seen.
      const built = await recorded(
        [
          '--input-type=module',
          '-e',
          "new RegExp('^\\\\p{scx=Latin}$', 'u'); new RegExp('\\\\p{Extended_Pictographic}', 'u');",
        ],
        dir,
      );
      expect(built.code, built.stderr).toBe(0);
      expect(built.lines.filter((line) => line.startsWith('expression '))).toEqual([
        'expression script',
        'expression word rule',
      ]);
    },
  );

  it('makes that table once a key is to be scrubbed: the recorder sees it made', async () => {
    // A key in the environment: every line the command says is scrubbed of it (main.ts keySafeIo).
    const run = await recorded([...cli, ...LIST], dir, {
      SERVICE_API_KEY: 'sk-recorder-0123456789',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines.filter((line) => line.startsWith('table '))).toEqual(['table invisible']);
  });

  it('builds them once when a record needs the schema: the recorder sees them built', async () => {
    // A failed task's record has an error, which the history's plain check leaves to the schema.
    const library = join(dir, 'failed-library');
    await mkdir(library, { mode: 0o700 });
    const store = HistoryStore.open(join(library, HISTORY_FILE));
    try {
      const error = { kind: 'server', message: 'The service failed.' } as const;
      store.putMany([makeTaskRecord({ localId: LOCAL_ID, status: 'failed', error })]);
    } finally {
      store.close();
    }
    const args = [...nodeEntryArgs('cli'), '--gallery-dir', join(dir, 'gallery')];
    const run = await recorded([...args, '--data-dir', library, 'list', '--json'], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines.filter((line) => line.startsWith('schema '))).toEqual([
      'schema request',
      'schema task record',
    ]);
    // The recorder sees every schema built, not only these two.
    expect(run.lines.filter((line) => line.startsWith('built ')).length).toBeGreaterThan(100);
  });

  it('is checked by a recorder that sees the archive, zod and crypto load and a thread start', async () => {
    const exported = await recorded([...cli, 'export', join(dir, 'library.zip')], dir);
    // Exit 4: the record's image is not in the gallery, and is left out of the archive.
    expect(exported.stderr).toContain('Exporting: 1 of 1 task(s)');
    expect(startedUnused(exported.lines).filter((found) => found.includes('yazl'))).not.toEqual([]);
    const thread = await recorded(
      [
        '--input-type=module',
        '-e',
        "import { Worker } from 'node:worker_threads'; new Worker('0', { eval: true });",
      ],
      dir,
    );
    expect(thread.code, thread.stderr).toBe(0);
    expect(startedUnused(thread.lines)).toEqual(['a worker thread: worker 0']);
    const crypto = await recorded(
      ['--input-type=module', '-e', "process.getBuiltinModule('node:crypto');"],
      dir,
    );
    expect(crypto.code, crypto.stderr).toBe(0);
    expect(startedUnused(crypto.lines)).toEqual(["Node's crypto code: builtin crypto"]);
    const zod = await recorded(
      ['--input-type=module', '-e', "import 'zod'; import 'node:v8';"],
      dir,
    );
    expect(zod.code, zod.stderr).toBe(0);
    expect(startedUnused(zod.lines).some((found) => found.startsWith("zod's files:"))).toBe(true);
    expect(startedUnused(zod.lines)).toContain('a Node module it does not use: load node:v8');
  });

  it("keeps its compiled code in the user's own cache folder, not the shared temp folder", async () => {
    const home = join(dir, 'cache-home');
    await mkdir(home, { mode: 0o700 });
    // No NODE_COMPILE_CACHE (the test run's own cache): the CLI picks the folder.
    const run = await recorded([...cli, 'list', '--json'], home, { NODE_COMPILE_CACHE: undefined });
    expect(run.code, run.stderr).toBe(0);
    const folder = join(home, '.cache', 'Pictor', 'compile-cache');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    // Node keeps the cache in a folder named for its version; the command's chunks are in it.
    const versions = (await readdir(folder)).filter((name) => name !== PRUNED_MARK);
    expect(versions).toHaveLength(1);
    expect(await readdir(join(folder, versions[0] ?? ''))).not.toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'keeps no compiled code in a cache folder others can write to',
    async () => {
      const home = join(dir, 'open-cache-home');
      const folder = join(home, '.cache', 'Pictor', 'compile-cache');
      await mkdir(folder, { recursive: true });
      await chmod(folder, 0o777);
      const run = await recorded([...cli, 'list', '--json'], home, {
        NODE_COMPILE_CACHE: undefined,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(await readdir(folder)).toEqual([]);
      // The same folder closed to others is used.
      await chmod(folder, 0o700);
      const closed = await recorded([...cli, 'list', '--json'], home, {
        NODE_COMPILE_CACHE: undefined,
      });
      expect(closed.code, closed.stderr).toBe(0);
      expect((await readdir(folder)).filter((name) => name !== PRUNED_MARK)).toHaveLength(1);
    },
  );

  it('rates without reading the settings file, which only a send of inputs or a consent needs', async () => {
    // A value of the wrong type: reading the file would set a copy aside and write it repaired.
    const damaged = JSON.stringify({ settings: { neverUploadInputs: 'yes' } });
    await writeFile(join(dataDir, 'settings.json'), damaged, { mode: 0o600 });
    try {
      const run = await recorded([...cli, 'rate', LOCAL_ID, '2'], dir);
      expect(run.code, run.stderr).toBe(0);
      expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(damaged);
      expect((await readdir(dataDir)).filter((name) => name.startsWith('settings'))).toEqual([
        'settings.json',
      ]);
    } finally {
      await rm(join(dataDir, 'settings.json'), { force: true });
    }
  });
});
