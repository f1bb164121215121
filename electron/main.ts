/**
 * The app's entry. Started with one of the CLI's commands (`pictor list`, `Pictor generate …`) it
 * is the command line on the app's library (cli-host.ts); otherwise the desktop app (app-main.ts).
 */
import { app, safeStorage } from 'electron';
import { startApp } from './app-main';
import { runAsCommandLine } from './cli-host';
import { cliArguments } from './cli/cli-invocation';

const cliArgs = cliArguments(process.argv, Boolean(process.defaultApp));
if (cliArgs) void runAsCommandLine(app, cliArgs, { safeStorage });
else startApp();
