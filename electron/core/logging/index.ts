/**
 * The logging module's face (electron/core/logging/): its doors are the exports below, the only
 * names other modules and the fronts import from it. The rotating, redacting log.
 */
export { type Redactor, secretRedactor } from './redaction';
export { APP_LOG_OPTIONS, RotatingFileLogger } from './rotating-file-logger';
export { createTaskEventLog } from './task-event-log';
