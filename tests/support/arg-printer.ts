/**
 * A stand-in for Pictor's binary in tests of the `pictor` wrappers: a shell script that prints
 * each argument it got between markers, so empty ones and newlines show, and the parser of what
 * it printed.
 */
import { chmodSync, writeFileSync } from 'node:fs';

/** Writes the stand-in at `file`, executable. */
export function writeArgPrinter(file: string): void {
  writeFileSync(file, '#!/bin/sh\nfor arg in "$@"; do printf \'<%s>\\n\' "$arg"; done\n');
  chmodSync(file, 0o755);
}

/** The arguments the stand-in printed, in order. */
export function printedArgs(stdout: string): string[] {
  return [...stdout.matchAll(/<([\s\S]*?)>\n/g)].map((match) => match[1] ?? '');
}
