/**
 * The installed app is also the `pictor` command: started with one of the CLI's commands as its
 * first argument (`Pictor list`, `/usr/bin/pictor generate …`), it runs the command-line front on
 * the same library instead of opening a window. No Node, no source checkout, and no
 * ELECTRON_RUN_AS_NODE: the `runAsNode` fuse stays off, so the binary never becomes a general
 * script runner that could read the key's storage.
 */

/**
 * The CLI's commands (cli-args.ts parses the same; a test keeps the two lists equal); anything
 * else (no argument, a file, macOS's -psn_…) starts the app.
 */
export const CLI_COMMANDS = [
  'generate',
  'demo',
  'resume',
  'track',
  'cancel',
  'list',
  'rebuild',
  'export',
  'import',
  'self-test',
  'info',
  'costs',
  'caps',
  'prices',
  'rate',
  'flag',
  'tag',
  'board',
  'write-metadata',
  'purge-rejected',
  'smart',
  'template',
  'compare',
  'edit',
  'upscale',
  'models',
  'mcp',
  'comfy',
  'local-servers',
  'help',
] as const;

/**
 * The CLI arguments in `argv` when the app was started as the command line, else null. Chromium
 * switches before the command are Chromium's, not the CLI's, and are left out: the Linux `pictor`
 * wrapper puts `--ozone-platform=headless` there when there is no display.
 * @param argv `process.argv`: `[binary, …args]` when packaged, `[electron, appPath, …args]` when
 *   started as `electron .` (`defaultApp`).
 */
export function cliArguments(argv: readonly string[], defaultApp: boolean): string[] | null {
  const args = argv.slice(defaultApp ? 2 : 1);
  const start = args.findIndex((arg) => !arg.startsWith('--'));
  const first = start === -1 ? undefined : args[start];
  return first !== undefined && (CLI_COMMANDS as readonly string[]).includes(first)
    ? args.slice(start)
    : null;
}
