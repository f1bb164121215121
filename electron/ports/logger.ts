/** Structured log fields. Never put a key, an Authorization header or a full request in here. */
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Where task events and errors go: a rotating file in the app, stderr in the CLI, nothing in tests. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
