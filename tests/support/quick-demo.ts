/**
 * The environment under which a command a test runs (a child process or the CLI's entry in this
 * process) has its built-in demo's tasks take 100 ms (PICTOR_DEMO_DURATION_MS, which the command
 * reads as the app does), not the app's 3 to 8 s of real time, which each command that waited for
 * its tasks spent idle: move-beside-command.test.ts about 20 s of its 33 s, info-triage.test.ts
 * and service-names.test.ts most of their 6 s. What a test judges of a demo task does not hang on
 * how long it took; a test whose task must still be under way at a moment it picks names its own
 * duration over this one.
 */
export const QUICK_DEMO: Readonly<Record<string, string>> = { PICTOR_DEMO_DURATION_MS: '100' };
