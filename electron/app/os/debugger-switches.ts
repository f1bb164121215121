/**
 * The command-line switches that would attach a debugger to the shipped app: Chromium's DevTools
 * server (`--remote-debugging-port`, `--remote-debugging-pipe` and their companions), Node's
 * inspector (`--inspect*`, the older `--debug*`) and V8's own flags (`--js-flags`, which can
 * expose natives or the garbage collector). Any process of the same user could otherwise start
 * Pictor with one of them, or leave one in a shortcut, and read the process that decrypts the
 * API key. The packaged app refuses them at start (adapters/debugger-guard.ts); the `inspect`
 * ones are also off in its binary (electron-builder.yml's `enableNodeCliInspectArguments` fuse).
 * With them, the switches that hand the key over with no debugger at all: any certificate trusted
 * (a proxy or a mapped host then reads the Authorization header off the wire), the TLS session
 * keys or a NetLog with its headers written to a file, and `localhost`'s plain http (the one
 * place the key goes in clear: core/service/url-policy.ts) mapped to another host or sent
 * through a proxy.
 *
 * The switches are read as Chromium reads them (base/command_line.cc): a switch starts with `--`
 * or `-` (on Windows also `/`), its name ends at `=`, names are case-insensitive on Windows, and
 * nothing after a lone `--` is a switch. Switches may stand anywhere among the arguments, before
 * or after the app's path or a `pictor` command.
 */

/** Switch names refused outright. */
const REFUSED_NAMES = new Set([
  'js-flags',
  'inspect',
  'inspect-brk',
  'inspect-brk-node',
  'inspect-port',
  'inspect-publish-uid',
  'inspect-wait',
  'debug',
  // The key without a debugger (see above).
  'ignore-certificate-errors',
  'ignore-urlfetcher-cert-requests',
  'ssl-key-log-file',
  'log-net-log',
  'host-resolver-rules',
  'host-rules',
  'proxy-bypass-list',
]);

/**
 * Name prefixes refused: every DevTools transport (port, pipe, its I/O pipes, its address), every
 * `--debug-…` (Node's older `--debug-brk`, `--debug-port` and whatever a runtime names so next:
 * the shipped app needs none), the certificate exceptions (`-spki-list`) and every NetLog setting
 * (`net-log-capture-mode`…).
 */
const REFUSED_PREFIXES = [
  'remote-debugging-',
  'inspect-',
  'debug-',
  'ignore-certificate-errors',
  'net-log-',
];

/** The prefixes Chromium takes as the start of a switch on `platform`. */
function switchPrefixes(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32' ? ['--', '-', '/'] : ['--', '-'];
}

/** The switch name `arg` gives, or null when it is no switch. */
function switchName(arg: string, platform: NodeJS.Platform): string | null {
  const prefix = switchPrefixes(platform).find((candidate) => arg.startsWith(candidate));
  if (prefix === undefined) return null;
  const name = arg.slice(prefix.length).split('=', 1)[0] ?? '';
  if (name === '') return null;
  return platform === 'win32' ? name.toLowerCase() : name;
}

function refused(name: string): boolean {
  return REFUSED_NAMES.has(name) || REFUSED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The arguments of `args` (the process's arguments after the program) that are refused debugger
 * switches, as they were typed (values cut off: a pipe name or a port is nobody's business).
 */
export function refusedDebuggerSwitches(
  args: readonly string[],
  platform: NodeJS.Platform,
): string[] {
  const found: string[] = [];
  for (const arg of args) {
    if (arg === '--') break;
    const name = switchName(arg, platform);
    if (name !== null && refused(name)) found.push(arg.split('=', 1)[0] ?? arg);
  }
  return found;
}

/**
 * Environment variables with the same effect as a refused switch: Chromium's network service
 * takes `SSLKEYLOGFILE` as it takes `--ssl-key-log-file`.
 */
const REFUSED_ENVIRONMENT = ['SSLKEYLOGFILE'];

/**
 * The refused variables `env` sets to something (names in any case on Windows, where the
 * environment's are), by their canonical names; their values are never read out.
 */
export function refusedEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): string[] {
  const set = Object.keys(env).filter((name) => (env[name] ?? '') !== '');
  const named = (wanted: string) =>
    set.some((name) => (platform === 'win32' ? name.toUpperCase() === wanted : name === wanted));
  return REFUSED_ENVIRONMENT.filter(named);
}

/** The line the packaged app prints on stderr before it exits, naming what it refused. */
export function refusalLine(switches: readonly string[]): string {
  return `Pictor: refused ${switches.join(', ')}: the installed app does not start with a debugger attached, or with its connections opened to others, because it holds your API key.`;
}

/** The packaged app's exit code when it refused to start: a usage error, as the CLI's. */
export const REFUSED_SWITCH_EXIT = 2;
