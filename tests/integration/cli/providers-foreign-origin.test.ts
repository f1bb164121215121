/**
 * A service that hands out a task's poll, result and cancel addresses on another origin
 * (`--foreign-origin` on the demo service: fal's status/response/cancel URLs, replicate's
 * `urls`, bfl's `polling_url`; DashScope hands out none) never gets the key sent there. The
 * foreign origin is a second loopback server that records every request: it hears nothing with
 * the key, and the task is kept, saying why it waits.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, WRONG_KEY, useProviderWorlds } from './providers-harness';
import { expectExit } from './cli-harness';
import { jsonLines } from './run-cli';

const newWorld = useProviderWorlds();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

/** A loopback server that answers 404 to everything and writes down each request's headers. */
async function recordingOrigin(seen: IncomingHttpHeaders[]): Promise<string> {
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.each(['fal', 'replicate', 'bfl'] as const)('--provider %s', (dialect) => {
  it('never sends the key to the foreign origin the service named for the task', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const foreign = await recordingOrigin(seen);
    const world = await newWorld(dialect, ['--foreign-origin', foreign]);
    const run = await world.run(['generate', ...world.named, '--prompt', 'p', '--json']);
    const [task] = jsonLines(run);
    // Accepted, then kept: the id is stored and the task waits (exit 3) instead of polling there.
    expectExit(run, 3);
    expect(task).toMatchObject({ provider: dialect, status: 'processing', hold: 'awaiting_key' });
    expect(run.stderr).toMatch(
      new RegExp(`is waiting: The service gave an address on ${foreign.slice(7)} for this task`),
    );
    // The app's advice (add the address in Settings) has no counterpart on the command line.
    expect(run.stderr).not.toMatch(/add it as the service/);

    const keys = [...Object.values(KEYS), WRONG_KEY];
    const withKey = seen.filter((headers) =>
      Object.values(headers).some((value) => keys.some((key) => String(value).includes(key))),
    );
    expect(withKey).toEqual([]);
    expect(seen).toEqual([]);
    expect((await world.service.log()).submits).toHaveLength(1);
  });
});
