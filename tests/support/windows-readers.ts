/**
 * A model of the readers a printed Windows line passes through, for the tests that check
 * shared/text/windows-command.ts where no Windows shell is (the CI's Windows leg runs the real
 * ones): PowerShell's single-quoted string, cmd.exe's `%` expansion and its `^` and quotes (a
 * batch file's `%*` reads them a second time), and the C runtime's split of a command line.
 */
import { expect } from 'vitest';

/** What the C runtime (and CommandLineToArgvW) splits a command line into. */
export function runtimeArgs(line: string): string[] {
  const args: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  for (let at = 0; at < line.length;) {
    const char = line[at]!;
    if (char === '\\') {
      let count = 0;
      while (line[at + count] === '\\') count += 1;
      at += count;
      inWord = true;
      if (line[at] === '"') {
        word += '\\'.repeat(Math.floor(count / 2));
        if (count % 2 === 1) {
          word += '"';
          at += 1;
        }
      } else word += '\\'.repeat(count);
    } else if (char === '"') {
      inWord = true;
      if (quoted && line[at + 1] === '"') {
        word += '"';
        at += 2;
      } else {
        quoted = !quoted;
        at += 1;
      }
    } else if (!quoted && (char === ' ' || char === '\t')) {
      if (inWord) args.push(word);
      word = '';
      inWord = false;
      at += 1;
    } else {
      word += char;
      inWord = true;
      at += 1;
    }
  }
  if (inWord) args.push(word);
  return args;
}

/** cmd.exe's `%` on a typed line: a variable of `env` (or a slice of one) replaced, else kept. */
export function cmdPercents(line: string, env: Record<string, string>): string {
  const valueOf = (name: string): string | undefined => {
    const slice = /^(\w+):~(-?\d*),(-?\d*)$/.exec(name);
    const found = (variable: string) =>
      Object.entries(env).find(([key]) => key.toLowerCase() === variable.toLowerCase())?.[1];
    if (!slice) return name === '' ? undefined : found(name);
    const value = found(slice[1]!);
    if (value === undefined) return undefined;
    const start = Number(slice[2] || 0);
    return value.slice(start, start + Number(slice[3] || 0)); // `%cd:~,%`: none of it
  };
  let out = '';
  for (let at = 0; at < line.length;) {
    const end = line[at] === '%' ? line.indexOf('%', at + 1) : -1;
    const value = end > at ? valueOf(line.slice(at + 1, end)) : undefined;
    if (value !== undefined) {
      out += value;
      at = end + 1;
    } else {
      out += line[at];
      at += 1;
    }
  }
  return out;
}

/** cmd.exe's second phase: `^` taken out of the line outside quotes; what it would act on throws. */
export function cmdCarets(line: string): string {
  let out = '';
  let quoted = false;
  for (let at = 0; at < line.length; at += 1) {
    const char = line[at]!;
    if (char === '"') quoted = !quoted;
    if (!quoted && char === '^') {
      at += 1;
      out += line[at] ?? '';
    } else if (!quoted && /[&|<>()]/.test(char)) throw new Error(`cmd.exe acts on ${char}`);
    else out += char;
  }
  return out;
}

/** PowerShell's reading of the `cmd /d /v:off /s /c '…'` line: the text it gives cmd.exe. */
export function powershellGives(line: string): string {
  const prefix = 'cmd /d /v:off /s /c ';
  expect(line.startsWith(prefix)).toBe(true);
  const quoted = line.slice(prefix.length);
  const isQuote = (char: string | undefined) => char !== undefined && /['‘’‚‛]/.test(char);
  expect(isQuote(quoted[0])).toBe(true);
  let text = '';
  for (let at = 1; at < quoted.length; at += 1) {
    const char = quoted[at]!;
    if (isQuote(char)) {
      if (!isQuote(quoted[at + 1])) {
        expect(at, `the string ends before the line does: ${line}`).toBe(quoted.length - 1);
        return text;
      }
      at += 1;
      text += quoted[at];
    } else text += char;
  }
  throw new Error(`unclosed string: ${line}`);
}
