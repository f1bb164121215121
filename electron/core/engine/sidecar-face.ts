/**
 * The engine module's second face (declared in eslint.config.js's CORE_FACES): the sidecar writes
 * of a triage change alone (triage-sidecars.ts), which the triage module's library opener uses
 * (core/triage/library-triage.ts) without loading the engine, its service client or downloads.
 */
export { triageSidecars } from './triage-sidecars';
