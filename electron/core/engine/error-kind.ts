/** A short, key-free word for an error, for log lines: a service error's kind, an errno code, a name. */
import { systemErrorCode } from '../errors';
import { ServiceError } from '../service';

export function errorKind(error: unknown): string {
  if (error instanceof ServiceError) return error.kind;
  if (error instanceof Error) return systemErrorCode(error) ?? error.name;
  return typeof error;
}
