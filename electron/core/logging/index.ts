/**
 * The logging module (electron/core/logging/), its face: the one file other modules and the fronts
 * import from it. The rotating, redacting log.
 */
export { type Redactor, secretRedactor } from './redaction';
export { RotatingFileLogger } from './rotating-file-logger';
export { createTaskEventLog } from './task-event-log';
