/** A short, key-free word for an error, for log lines: a service error's kind, an errno code, a name. */
import { systemErrorCode } from '../errors/thrown-value';
import { ServiceError } from '../service/service-error';

export function errorKind(error: unknown): string {
  if (error instanceof ServiceError) return error.kind;
  if (error instanceof Error) return systemErrorCode(error) ?? error.name;
  return typeof error;
}
