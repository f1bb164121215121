/**
 * Counts the work a service answer costs the main thread, instead of timing it: the characters
 * `JSON.parse` is given there, and the characters the key is searched for in there (a test file
 * wraps key-echo.ts's exports with {@link countedKeySearch} in its `vi.mock`). Work the answer
 * worker does runs on another thread, with its own `JSON` and its own modules, and is not
 * counted: what these count is what blocks IPC, the gallery protocol and the window.
 */
import type * as KeyEcho from '../../../electron/core/secrets/key-echo';

const counts = { parsed: 0, searched: 0 };

/** Starts counting the main thread's `JSON.parse`; the returned function stops it. */
export function countMainThreadParsing(): () => void {
  const parse = JSON.parse.bind(JSON);
  JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    // Vitest reads the source maps of this process's modules to map an error's stack (a
    // ServiceError made on the main thread): the test runner's work, which the app never does.
    if (!String(text).startsWith('{"version":3,')) counts.parsed += String(text).length;
    return parse(text, reviver) as unknown;
  };
  return () => {
    JSON.parse = parse;
  };
}

/** key-echo.ts with every search counted (its exports call each other through these). */
export function countedKeySearch(actual: typeof KeyEcho): typeof KeyEcho {
  return {
    ...actual,
    findKeyEchoes: (text, key) => {
      counts.searched += text.length;
      return actual.findKeyEchoes(text, key);
    },
    carriesKey: (text, key) => {
      counts.searched += text.length;
      return actual.carriesKey(text, key);
    },
    scrubKey: (text, key) => {
      counts.searched += text.length;
      return actual.scrubKey(text, key);
    },
  };
}

/** What the main thread parsed and searched while `work` ran. */
export async function mainThreadWork<T>(
  work: () => Promise<T>,
): Promise<{ readonly result: T | Error; readonly parsed: number; readonly searched: number }> {
  const before = { ...counts };
  let result: T | Error;
  try {
    result = await work();
  } catch (error) {
    result = error instanceof Error ? error : new Error(String(error));
  }
  return {
    result,
    parsed: counts.parsed - before.parsed,
    searched: counts.searched - before.searched,
  };
}
