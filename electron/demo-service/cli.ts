/**
 * The demo service as a development server: `npm run demo-service -- --port 0 --key alice:sk-alice`.
 * Prints exactly `listening on <url>` on stdout once listening; bad arguments exit 2;
 * SIGINT / SIGTERM close it and exit 0. Keys are never printed.
 */
import { readFile } from 'node:fs/promises';
import { USAGE, parseCliArgs } from './cli-args';
import { UsageError } from '../core/command-line';
import { DemoOptionsError } from './options';
import { startDemoService } from './server';
import type { DemoService } from './types';
import { messageOf } from '../core/errors';
import { plainNodeImageEngine } from '../adapters/image-engines/plain-node-engine';

const EXIT_USAGE = 2;
const EXIT_FAILURE = 1;

function stopOnSignals(service: DemoService): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void service.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // `npm run demo-service` starts this through a shell. Stopping npm ends the shell but not this
  // process, which went on holding the port: when the process that started it is gone (its
  // parent changes), it stops too.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500);
  watch.unref();
}

/** The files of `--image-file`, read whole; one that cannot be read is a usage error. */
async function readImageFiles(paths: readonly string[]): Promise<Uint8Array[]> {
  const files: Uint8Array[] = [];
  for (const path of paths) {
    try {
      files.push(await readFile(path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      process.stderr.write(`demo-service: --image-file ${path} could not be read (${code}).\n`);
      process.exit(EXIT_USAGE);
    }
  }
  return files;
}

async function main(argv: string[]): Promise<void> {
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(
      `demo-service: ${error.message}\nRun "npm run demo-service -- --help" for the options.\n`,
    );
    process.exit(EXIT_USAGE);
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const imageFiles = await readImageFiles(command.imageFiles);
  let service: DemoService;
  try {
    // Native sharp draws the pictures when it loads here; else plain gradient PNGs.
    service = await startDemoService({
      images: await plainNodeImageEngine(),
      ...command.options,
      ...(imageFiles.length > 0 ? { imageFiles } : {}),
    });
  } catch (error) {
    const usage = error instanceof DemoOptionsError;
    const reason = messageOf(error);
    process.stderr.write(`demo-service: ${usage ? reason : `could not start: ${reason}`}\n`);
    process.exit(usage ? EXIT_USAGE : EXIT_FAILURE);
  }
  stopOnSignals(service);
  process.stdout.write(`listening on ${service.url}\n`);
}

await main(process.argv.slice(2));
