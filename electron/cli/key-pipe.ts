/**
 * The keys the Linux `pictor` command hands to the binary through an inherited anonymous pipe
 * (resources/linux/pictor.sh), never in its environment: Chromium forks the renderers (the hidden
 * image renderer decodes images from hosts Pictor does not trust) from a zygote started before any
 * of Pictor's code, and each keeps the environment the binary started with. PICTOR_KEYS_FD names
 * the pipe's descriptor; the payload is NAME NUL VALUE NUL records (no value or name holds a NUL,
 * so newlines and `=` in a value are its own). Read synchronously to its end at the command's first
 * step, then closed. The descriptor must be a pipe: a crafted PICTOR_KEYS_FD naming a file, a
 * terminal, /dev/null or a socket is refused before a byte is read. No message quotes the payload.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { isKeyVariable } from './key-variables';

/** The environment variable that names the pipe's descriptor (the wrapper's: 3). */
export const KEY_PIPE_VARIABLE = 'PICTOR_KEYS_FD';

/** More than every provider's key together; a payload past it is refused, not held in memory. */
const MOST_BYTES = 32 * 1024;

/** A pipe the command cannot take its keys from: the command stops with this sentence. */
export class KeyPipeError extends Error {
  constructor(why: string) {
    super(`The keys handed over by the pictor command cannot be read: ${why}.`);
    this.name = 'KeyPipeError';
  }
}

/**
 * The key variables the pipe `env` names holds, by name, PICTOR_KEYS_FD then taken out of `env`
 * (processes started later must not read a descriptor they do not have); none when it names none.
 * Throws KeyPipeError when the variable is not a descriptor number above stdin, stdout and stderr,
 * the descriptor is not open or not a pipe, or the payload is not whole NAME NUL VALUE NUL records
 * of key variables, each named once.
 */
export function takeKeyPipe(env: NodeJS.ProcessEnv): Record<string, string> {
  const fd = keyPipeOf(env);
  if (fd === null) return {};
  try {
    return keyRecords(readToEnd(fd));
  } finally {
    closeSync(fd);
  }
}

/**
 * Closes the pipe `env` names, unread, and takes PICTOR_KEYS_FD out of `env`: for the desktop app
 * the wrapper started (`pictor` with no command, a key variable exported), which reads no key
 * from it, so no program it starts (xdg-open, the key store's probe) inherits a descriptor still
 * holding the keys. A PICTOR_KEYS_FD that names no pipe is only taken out; nothing is refused.
 */
export function dropKeyPipe(env: NodeJS.ProcessEnv): void {
  try {
    const fd = keyPipeOf(env);
    if (fd !== null) closeSync(fd);
  } catch (error) {
    if (!(error instanceof KeyPipeError)) throw error;
  }
}

/** The pipe's descriptor `env` names, PICTOR_KEYS_FD taken out of `env`; null: none is named. */
function keyPipeOf(env: NodeJS.ProcessEnv): number | null {
  const marker = env[KEY_PIPE_VARIABLE];
  if (marker === undefined) return null;
  Reflect.deleteProperty(env, KEY_PIPE_VARIABLE);
  if (!/^[1-9][0-9]{0,5}$/.test(marker) || Number(marker) < 3)
    throw new KeyPipeError(`${KEY_PIPE_VARIABLE} is not a descriptor above 2`);
  const fd = Number(marker);
  let isPipe: boolean;
  try {
    isPipe = fstatSync(fd).isFIFO();
  } catch {
    throw new KeyPipeError(`descriptor ${fd} is not open`);
  }
  if (!isPipe) throw new KeyPipeError(`descriptor ${fd} is not a pipe`);
  return fd;
}

function readToEnd(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(16 * 1024);
    let read: number;
    try {
      read = readSync(fd, chunk, 0, chunk.length, null);
    } catch {
      throw new KeyPipeError('reading it failed');
    }
    if (read === 0) return Buffer.concat(chunks, total);
    total += read;
    if (total > MOST_BYTES) throw new KeyPipeError(`it holds more than ${MOST_BYTES} bytes`);
    chunks.push(chunk.subarray(0, read));
  }
}

/** NAME NUL VALUE NUL records, by name; a name as a shell names a variable (the wrapper's). */
function keyRecords(payload: Buffer): Record<string, string> {
  const keys: Record<string, string> = {};
  if (payload.length === 0) return keys;
  if (payload[payload.length - 1] !== 0) throw new KeyPipeError('its last record is cut short');
  const fields = payload
    .subarray(0, payload.length - 1)
    .toString('utf8')
    .split('\0');
  if (fields.length % 2 !== 0) throw new KeyPipeError('a name has no value');
  for (let at = 0; at < fields.length; at += 2) {
    const name = fields[at] ?? '';
    const record = at / 2 + 1;
    if (!isKeyVariable(name) || !/^[A-Za-z0-9_]+$/.test(name))
      throw new KeyPipeError(`record ${record} names no key variable`);
    if (Object.hasOwn(keys, name)) throw new KeyPipeError(`record ${record} names a key twice`);
    keys[name] = fields[at + 1] ?? '';
  }
  return keys;
}
