/**
 * A model's published options built so that reading them costs far more than their size: thousands
 * of options that each lead (a `$ref`, an `allOf` of one, a nullable `anyOf`) to one wide node
 * shared by all of them. Inside the text, depth and node bounds, the reader copied the whole node
 * it reached for every option (and walked every entry of an `anyOf` for every option): a 430 KB
 * answer held main's thread for 110 s (the window, IPC and the gallery protocol with it) on a
 * model's first use, and a schema file the user imported did the same. Served over loopback as
 * Replicate and fal publish them, and read from a real file as `models import-schema` reads one:
 * the work is counted, not timed (every property read of the parsed document, through a Proxy
 * over what JSON.parse gives), and must stay a small multiple of the document's own nodes. The one
 * option that is renderable is still read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ParamSchemaBook } from '../../../electron/core/param-schemas/param-schema-book';
import { fetchPublishedSchema } from '../../../electron/core/service/published-schema';
import { MAX_SCHEMA_CHARS } from '../../../shared/domain/fetched-param-schema';
import { closeServers, serve } from '../../support/http-servers';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'r8_schema-work-6767-abcdef';
/** Reads of the parsed document allowed per node it has (the reader takes about 7). */
const READS_PER_NODE = 16;
/** The one option the documents offer Pictor can render. */
const STEPS = { type: 'integer', minimum: 1, maximum: 50 };

let dir = '';
beforeAll(async () => {
  dir = await tempFolder('schema-work');
});
afterAll(async () => {
  await removeFolder(dir);
});
afterEach(closeServers);

/** A node of `keys` numbered keys: what every option leads to. */
function wide(keys: number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 0]));
}

/** `count` options, each `option(i)`, beside the steps. */
function options(count: number, option: () => unknown): Record<string, unknown> {
  const entries = Array.from({ length: count }, (_, i) => [`p${i}`, option()]);
  return { ...Object.fromEntries(entries), steps: STEPS };
}

const WIDE_REF = { $ref: '#/components/schemas/Wide' };

/** The input's options and the shared schemas, per way of leading to the wide node. */
const SHAPES: Record<string, () => { input: Record<string, unknown>; shared: object }> = {
  'a $ref': () => ({ input: options(4_000, () => WIDE_REF), shared: { Wide: wide(24_000) } }),
  'an allOf of one $ref': () => ({
    input: options(3_000, () => ({ allOf: [WIDE_REF] })),
    shared: { Wide: wide(24_000) },
  }),
  'a nullable anyOf of many entries': () => ({
    input: options(4_000, () => ({ $ref: '#/components/schemas/Either' })),
    shared: { Either: { anyOf: Array.from({ length: 24_000 }, () => 0) } },
  }),
};

/** What one read cost: the reads of the parsed document, and its nodes. */
const counted = { reads: 0, nodes: 0, limit: Number.POSITIVE_INFINITY, over: false };

function nodesOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  return 1 + Object.values(value).reduce<number>((sum, child) => sum + nodesOf(child), 0);
}

function count(reads: number): void {
  counted.reads += reads;
  if (counted.reads > counted.limit && !counted.over) {
    counted.over = true;
    // Ends the read at once: the test fails on `over`, whatever the reader made of this.
    throw new Error('the read went over its work');
  }
}

/** `value` with every property read of it and of what it holds counted. */
function countedTree(value: unknown, proxies = new WeakMap<object, object>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = proxies.get(value);
  if (known) return known;
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      count(1);
      return countedTree(Reflect.get(target, key, receiver), proxies);
    },
    has(target, key) {
      count(1);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      count(keys.length);
      return keys;
    },
    getOwnPropertyDescriptor(target, key) {
      count(1);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  proxies.set(value, proxy);
  return proxy;
}

/** Runs `read` with the schema document's JSON.parse counted (texts as large as a schema's). */
async function countedRead<T>(read: () => Promise<T>): Promise<T> {
  const parse = JSON.parse.bind(JSON);
  Object.assign(counted, { reads: 0, nodes: 0, limit: Number.POSITIVE_INFINITY, over: false });
  JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    const parsed = parse(text, reviver) as unknown;
    if (String(text).length < 100_000) return parsed;
    counted.nodes = nodesOf(parsed);
    counted.limit = READS_PER_NODE * counted.nodes;
    return countedTree(parsed);
  };
  try {
    return await read();
  } finally {
    JSON.parse = parse;
  }
}

function replicateText(shape: ReturnType<(typeof SHAPES)[string]>): string {
  const schemas = { Input: { type: 'object', properties: shape.input }, ...shape.shared };
  return JSON.stringify({ latest_version: { openapi_schema: { components: { schemas } } } });
}

function falText(shape: ReturnType<(typeof SHAPES)[string]>): string {
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/In' } } } };
  return JSON.stringify({
    paths: { '/acme/wide': { post: { requestBody: body } } },
    components: { schemas: { In: { type: 'object', properties: shape.input }, ...shape.shared } },
  });
}

describe('a published schema whose options all lead to one wide node', () => {
  it.each(Object.keys(SHAPES))('through %s, served as Replicate publishes it', async (name) => {
    const text = replicateText(SHAPES[name]!());
    expect(text.length).toBeLessThanOrEqual(MAX_SCHEMA_CHARS);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    });
    const credentials = {
      baseUrl: server.origin,
      key: KEY,
      keyFingerprint: 'acct',
      provider: 'replicate' as const,
    };
    const read = await countedRead(() =>
      fetchPublishedSchema({ fetch, heldKeys: undefined }, credentials, 'acme/wide'),
    );
    expect(counted.over, `${counted.reads} reads of ${counted.nodes} nodes`).toBe(false);
    expect(read).toEqual({ ok: true, schema: { params: { steps: expect.anything() } } });
    expect(server.requests.length).toBe(1);
  });

  it.each(Object.keys(SHAPES))('through %s, served as fal publishes it', async (name) => {
    const text = falText(SHAPES[name]!());
    expect(text.length).toBeLessThanOrEqual(MAX_SCHEMA_CHARS);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    });
    const credentials = {
      baseUrl: server.origin,
      key: '',
      keyFingerprint: 'acct',
      provider: 'fal' as const,
    };
    const read = await countedRead(() =>
      fetchPublishedSchema({ fetch, heldKeys: undefined }, credentials, 'acme/wide'),
    );
    expect(counted.over, `${counted.reads} reads of ${counted.nodes} nodes`).toBe(false);
    expect(read).toEqual({ ok: true, schema: { params: { steps: expect.anything() } } });
  });

  it.each(Object.keys(SHAPES))('through %s, in a file the user imports', async (name) => {
    const shape = SHAPES[name]!();
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    await writeFile(
      file,
      JSON.stringify({ properties: shape.input, components: { schemas: shape.shared } }),
    );
    const book = new ParamSchemaBook(dir, () => 1);
    await book.open();
    const imported = await countedRead(() => book.importFile('pictor', 'own-model', file)).catch(
      (error: unknown) => error,
    );
    expect(counted.over, `${counted.reads} reads of ${counted.nodes} nodes`).toBe(false);
    expect(imported).toEqual({ ok: true, names: ['steps'] });
  });
});
