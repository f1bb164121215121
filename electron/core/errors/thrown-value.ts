/**
 * Words for whatever was thrown. `catch` hands over `unknown`: an Error, a string, an object from
 * a library, `undefined`. These are the only places that turn one into text or a code.
 */

/** The message of anything thrown: an Error's message, or the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An Error's class and message (`TypeError: x is undefined`), for a technical detail or a log. */
export function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A system error's code (`ENOSPC`), else the message: short words for a log line or a reason. */
export function codeOrMessage(error: unknown): string {
  return systemErrorCode(error) ?? messageOf(error);
}

/** The code of a Node system error (`ENOENT`, `EACCES`, `ELOOP`…), when it has one. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
