/**
 * `npm run ci:installed -- <help|self-test> [--no-display] [--no-sandbox] [--executable PATH]`:
 * runs the installed `pictor` command as a user types it (installed-app.ts says where each OS's
 * installer puts it) and checks what it prints. `--no-display` drops DISPLAY and WAYLAND_DISPLAY
 * (an SSH session, a server); `--no-sandbox` is for root in a container. Exits 0 or 1.
 */
import { spawn } from 'node:child_process';
import {
  checkHelp,
  checkSelfTest,
  commandLine,
  installedCommand,
  withoutDisplay,
} from './installed-app';

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const [file, argv] = commandLine(command, args);
  return new Promise<{ code: number | null; stdout: string; output: string }>((resolve) => {
    const child = spawn(file, argv, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsVerbatimArguments: file === 'cmd.exe',
    });
    let stdout = '';
    let output = '';
    child.stdout.on(
      'data',
      (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())),
    );
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) =>
      resolve({ code: null, stdout, output: `${output}${error.message}` }),
    );
    child.on('exit', (code) => resolve({ code, stdout, output }));
  });
}

async function main(args: readonly string[]): Promise<number> {
  const what = args[0];
  if (what !== 'help' && what !== 'self-test') {
    console.error(
      'usage: npm run ci:installed -- <help|self-test> [--no-display] [--no-sandbox] [--executable PATH]',
    );
    return 2;
  }
  const index = args.indexOf('--executable');
  const command =
    (index === -1 ? undefined : args[index + 1]) ?? installedCommand(process.platform, process.env);
  const env = args.includes('--no-display') ? withoutDisplay(process.env) : process.env;
  const switches = args.includes('--no-sandbox') ? ['--no-sandbox'] : [];
  console.log(
    `installed: ${command} ${[...switches, what].join(' ')}${env === process.env ? '' : ' (no display)'}`,
  );
  const result = await run(command, [...switches, what], env);
  const verdict =
    what === 'help'
      ? checkHelp(result.code, result.output)
      : checkSelfTest(result.code, result.stdout);
  if (!verdict.ok) {
    console.error(`installed: FAILED: ${verdict.problem}\n${result.output.slice(-3000)}`);
    return 1;
  }
  console.log(`installed: ${verdict.line}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
