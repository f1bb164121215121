import { writeSync } from 'node:fs';

/**
 * Writes a line straight to fd 1, for child processes a test kills: a killed process must not
 * hold printed lines in a stream buffer, and a full pipe (EAGAIN) is retried, not dropped.
 */
export function printLine(line: string): void {
  const bytes = Buffer.from(`${line}\n`);
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
}
