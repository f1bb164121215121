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

/**
 * The arguments under which a command that waits on its tasks looks at them every 0.1 s, not
 * every 3 s (its --poll-interval, the service's rule): a demo task of 100 to 400 ms otherwise
 * waited out most of one interval idle (move-beside-command.test.ts's `demo` commands about 3 s of
 * their 4 to 5 s each). A command that never polls ignores it. What a test judges of a task does
 * not hang on how often it was looked at; a test of the interval itself names its own.
 */
export const QUICK_POLL: readonly string[] = ['--poll-interval', '0.1'];
