/**
 * The key goes only under the base URL it is for, over real HTTP: a gateway on one origin serves
 * two tenants, /team-a (the user's) and /team-b (someone else's). Redirects to the sibling, and
 * task ids or redirects built to step out of /team-a once a server decodes them, are refused;
 * /team-b never sees a request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { serviceError } from './answer-harness';
import { closeServers, sendJson, serve, type TestServer } from '../../../support/http-servers';

const KEY = 'sk-live-TENANT-A-4417';
afterEach(closeServers);

const client = new ServiceClient({ fetch: (url, init) => fetch(url, init) });
const creds = (baseUrl: string) => ({ baseUrl, key: KEY, keyFingerprint: 'acct' });

/** A gateway whose /team-a answers with `redirect(path)` when it returns a location. */
async function gateway(redirect: (path: string) => string | null): Promise<TestServer> {
  return serve((req, res) => {
    const path = req.url ?? '/';
    const location = path.startsWith('/team-a/v1/tasks/first') ? redirect(path) : null;
    if (location !== null) {
      res.writeHead(302, { location });
      res.end();
      return;
    }
    sendJson(res, 200, { status: 'processing' });
  });
}

function teamBRequests(server: TestServer): string[] {
  return server.requests
    .map((request) => decodeURIComponent(decodeURIComponent(request.url)))
    .filter((path) => !path.startsWith('/team-a/') || path.split(/[/\\]/).includes('..'));
}

describe('requests stay under the base URL the key is for', () => {
  it('follows a redirect that stays under /team-a', async () => {
    const server = await gateway(() => '/team-a/v1/tasks/second');
    const base = `${server.origin}/team-a`;
    await expect(client.getTask(creds(base), 'first')).resolves.toEqual({ status: 'processing' });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/team-a/v1/tasks/first',
      '/team-a/v1/tasks/second',
    ]);
  });

  it.each([
    ['a sibling path', '/team-b/v1/tasks/first'],
    ['a longer sibling', '/team-ab/v1/tasks/first'],
    ['the origin root', '/v1/tasks/first'],
    ['a dot segment', '/team-a/../team-b/v1/tasks/first'],
    ['an encoded dot segment', '/team-a/%2e%2e/team-b/v1/tasks/first'],
    ['encoded slashes', '/team-a/v1/tasks/..%2F..%2F..%2Fteam-b%2Fv1%2Ftasks%2Fx'],
    ['double-encoded slashes', '/team-a/v1/tasks/..%252F..%252F..%252Fteam-b'],
    ['encoded backslashes', '/team-a/v1/tasks/..%5C..%5C..%5Cteam-b'],
  ])('refuses a redirect to %s, which never hears from Pictor', async (_name, location) => {
    const server = await gateway(() => location);
    const error = await serviceError(client.getTask(creds(`${server.origin}/team-a`), 'first'));
    expect(error.message).toMatch(/redirected the request to another address/);
    expect(error.message).not.toContain(KEY);
    expect(server.requests.map((request) => request.url)).toEqual(['/team-a/v1/tasks/first']);
    expect(teamBRequests(server)).toEqual([]);
  });

  it.each([
    '../../../team-b/v1/tasks/x',
    '..\\..\\..\\team-b',
    '..%2F..%2F..%2Fteam-b',
    '%2e%2e%2f%2e%2e%2fteam-b',
    '..%252F..%252Fteam-b',
    'ok/../../../../team-b',
  ])('refuses the task id %s before anything is sent', async (id) => {
    const server = await gateway(() => null);
    const error = await serviceError(client.getTask(creds(`${server.origin}/team-a`), id));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/path part/);
    expect(server.requests).toEqual([]);
  });

  it('still sends ids with dots and slashes that go nowhere', async () => {
    const server = await gateway(() => null);
    const base = `${server.origin}/team-a`;
    for (const id of ['v1.2', 'a..b', 'org/task-7', '...']) {
      await expect(client.getTask(creds(base), id), id).resolves.toEqual({
        status: 'processing',
      });
    }
    expect(teamBRequests(server)).toEqual([]);
  });
});
