/**
 * The environment variables the command line reads keys from: SERVICE_API_KEY (one service's
 * key) and PICTOR_KEY_<PROVIDER> (a compare's or an MCP server's key per provider). The one home
 * of their names, for the commands that read them and for the guards that scrub what the process
 * prints of any of them (runCli's keySafeIo, the MCP server's answers). No imports: the guard
 * reads it at every start.
 */

/** The single service key of `generate`, `resume` and the other commands. */
const SERVICE_KEY_VARIABLE = 'SERVICE_API_KEY';

const PROVIDER_KEY_PREFIX = 'PICTOR_KEY_';

/** The environment variable holding `provider`'s key for a compare: `PICTOR_KEY_FAL`. */
export function keyVariable(provider: string): string {
  return `${PROVIDER_KEY_PREFIX}${provider.toUpperCase()}`;
}

/** Whether `name` is a key variable's: SERVICE_API_KEY or any PICTOR_KEY_* (the pipe's too). */
export function isKeyVariable(name: string): boolean {
  return name === SERVICE_KEY_VARIABLE || name.startsWith(PROVIDER_KEY_PREFIX);
}

/**
 * Every key value the environment gives this process, trimmed, empty ones left out:
 * SERVICE_API_KEY's and every PICTOR_KEY_* variable's, a provider's no command knows included
 * (scrubbing a value no command reads costs nothing; missing one a later provider adds would leak it).
 */
export function environmentKeys(env: NodeJS.ProcessEnv): string[] {
  const keys: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!isKeyVariable(name)) continue;
    const key = value?.trim() ?? '';
    if (key !== '' && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/**
 * A copy of `env` for the command line to read its keys from, the key variables then taken out of
 * `env` itself (the process's environment): every process started after this inherits what is
 * left. The installed `pictor` command is Electron, whose renderer, GPU and utility processes
 * (the hidden image renderer decodes images from hosts Pictor does not trust) are started with the
 * environment of the moment on macOS and Windows; on Linux they fork from a zygote started before
 * any of Pictor's code runs, which this cannot reach: there the `pictor` command hands the keys
 * over through a pipe instead (key-pipe.ts), and the binary's environment never holds them.
 */
export function takeKeyVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of Object.keys(env)) {
    if (isKeyVariable(name)) Reflect.deleteProperty(env, name);
  }
  return copy;
}
