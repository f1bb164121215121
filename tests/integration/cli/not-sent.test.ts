/**
 * The CLI's exit code tells "not sent" (6) from "may have reached the service" (7): each way a
 * submit fails before its first byte is written exits 6 with a sentence naming the cause and no
 * library words; a connection dropped after the request was read exits 7. A --base-url the URL
 * policy refuses is refused before any byte is written: exit 6 too, nothing stored or sent.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../support/http-servers';
import {
  dropAfterRequestServer,
  plainServer,
  selfSignedServer,
  type LoopbackPlace,
} from '../../support/unsent-servers';
import { describeRun, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-cli-not-sent-7b2c';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function place(started: Promise<LoopbackPlace>): Promise<LoopbackPlace> {
  const server = await started;
  cleanups.push(() => server.close());
  return server;
}

async function generate(baseUrl: string): Promise<CliRun> {
  const home = await tempFolder('cli-not-sent');
  cleanups.push(() => removeFolder(home));
  const args = ['generate', '--prompt', 'a kite', '--base-url', baseUrl];
  return runCliHere([...args, '--data-dir', join(home, 'data'), '--poll-interval', '0.2'], {
    home,
    key: KEY,
  });
}

/** Library words that must never stand in for a sentence. */
const RAW = /fetch failed|bad port|Error:|<-|getaddrinfo|TypeError/;

/** The run's line about its task (the last one on stdout or stderr naming it). */
function taskLine(run: CliRun): string {
  const lines = `${run.stdout}\n${run.stderr}`.split('\n');
  return lines.filter((line) => line.startsWith('Task ')).pop() ?? '';
}

function expectNotSent(run: CliRun, said: RegExp): void {
  expect(run.code, describeRun(run)).toBe(6);
  const line = taskLine(run);
  expect(line, describeRun(run)).toMatch(said);
  expect(line).toMatch(/nothing was sent|Nothing was sent/);
  expect(line).not.toMatch(RAW);
  expect(line).not.toContain('may have reached');
  expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
}

describe('a submit that never left exits 6, naming why', () => {
  it.each([9, 6000])('a bad port (%i)', async (port) => {
    const run = await generate(`http://127.0.0.1:${port}`);
    expectNotSent(run, new RegExp(`does not connect to port ${port} of 127\\.0\\.0\\.1`));
    expect(taskLine(run)).toContain('Check the port in --base-url.');
  });

  it('a refused connection', async () => {
    const port = await closedPort();
    const run = await generate(`http://127.0.0.1:${port}`);
    expectNotSent(
      run,
      new RegExp(`Nothing answers at 127\\.0\\.0\\.1:${port}: the connection was refused`),
    );
  });

  it('a name that does not resolve', async () => {
    const run = await generate('https://api.pictor-test.invalid');
    expectNotSent(run, /The name api\.pictor-test\.invalid could not be found/);
  });

  it('a certificate nobody trusts', async () => {
    const server = await place(selfSignedServer());
    const run = await generate(server.origin);
    expectNotSent(
      run,
      /could not make a secure connection to the service \(its certificate was not accepted\)/,
    );
    expect(server.received).toEqual([]);
  });

  it('a failed TLS handshake (https to a plain-http port)', async () => {
    const server = await place(plainServer());
    const run = await generate(`https://127.0.0.1:${server.port}`);
    expectNotSent(run, /the secure handshake failed/);
    expect(server.received).toEqual([]);
  });
});

describe('the others', () => {
  it('a connection dropped after the request was read exits 7: it may have reached the service', async () => {
    const server = await place(dropAfterRequestServer());
    const run = await generate(server.origin);
    expect(run.code, describeRun(run)).toBe(7);
    expect(taskLine(run)).toContain('The request may have reached the service');
    expect(server.received).toEqual(['POST /v1/images/generations']);
  });

  it('a --base-url the URL policy refuses exits 6: nothing stored or sent', async () => {
    const run = await generate('http://api.example.com');
    expect(run.code, describeRun(run)).toBe(6);
    expect(run.stderr).toContain('The service URL must start with https://');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(RAW);
  });
});
