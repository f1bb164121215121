/**
 * The app's entry. First, a packaged app started with a debugger switch says so and exits
 * (adapters/debugger-guard.ts). Started with one of the CLI's commands (`pictor list`, `Pictor
 * generate …`) it is the command line on the app's library (cli-host.ts); otherwise the desktop
 * app (app-main.ts).
 */
import { app, safeStorage } from 'electron';
import { refuseDebuggerSwitches } from './adapters/debugger-guard';
import { chooseKeyStore } from './adapters/linux-secret-service';
import { commandLineImages } from './adapters/image-engines/app-image-engine';
import { streamLogger } from './adapters/stream-logger';
import { startApp } from './app-main';
import { runAsCommandLine } from './cli-host';
import { cliArguments } from './cli/cli-invocation';
import { dropKeyPipe } from './cli/key-pipe';
import { terminalSafe } from './cli/terminal-text';

/** The `pictor` command when started as one, else the desktop app. */
function start(): void {
  const cliArgs = cliArguments(process.argv, Boolean(process.defaultApp));
  if (!cliArgs) {
    // The keys the Linux wrapper hands over are the command line's (cli/key-pipe.ts).
    dropKeyPipe(process.env);
    startApp();
    return;
  }
  // Why the image renderer could not start, on stderr: the command's output stays its own.
  const warnings = streamLogger(
    (line) => void process.stderr.write(`${terminalSafe(line.trimEnd())}\n`),
    'warn',
  );
  const images = commandLineImages(app, warnings);
  void runAsCommandLine(app, cliArgs, {
    safeStorage,
    imageEngine: images.engine,
    rendererVerifier: images.rendererVerifier,
    // The app's own choice (app-main.ts makes the same call): self-test reports that store.
    chooseKeyStore: () => chooseKeyStore(app, warnings),
  });
}

if (!refuseDebuggerSwitches(app)) start();
