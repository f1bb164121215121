import type { LogFields, Logger } from '../ports/logger';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** One line per entry on a stream (the CLI's stderr), at or above `minimum`. */
export function streamLogger(write: (line: string) => void, minimum: Level): Logger {
  const log = (level: Level) => (message: string, fields?: LogFields) => {
    if (ORDER[level] < ORDER[minimum]) return;
    const extras = fields
      ? Object.entries(fields)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => `${key}=${String(value)}`)
          .join(' ')
      : '';
    write(`${new Date().toISOString()} ${level} ${message}${extras ? ` ${extras}` : ''}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
