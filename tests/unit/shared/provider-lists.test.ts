/**
 * A sixth service is named in one list (PROVIDER_IDS) and registered in the few files
 * docs/ARCHITECTURE.md lists under "Adding a service": every other per-service record and schema
 * is derived from PROVIDER_IDS. Two checks hold that count: each per-provider record has exactly
 * PROVIDER_IDS's keys (typed as `Record<ProviderId, …>`, so TypeScript refuses one that misses a
 * provider), and no product file but the registries spells the services out by hand. A third holds
 * the capabilities table to the upload steps: a model whose inputs may be uploaded names a service
 * that has one (electron/core/inputs/uploaders.ts), so no send finds the upload step missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { UPLOADERS } from '../../../electron/core/inputs/uploaders';
import { profileOf } from '../../../electron/core/service/providers/profiles';
import { DEMO_DIALECTS } from '../../../electron/demo-service/types';
import { keyStatusesSchema } from '../../../shared/domain/key-status';
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import { serviceBaseUrlsSchema } from '../../../shared/domain/settings';
import { MODEL_CAPABILITIES } from '../../../shared/domain/model-capabilities';

const ROOT = join(__dirname, '../../..');

/**
 * The files a new service is registered in, besides its own profile
 * (electron/core/service/providers/<id>.ts) and demo dialect
 * (electron/demo-service/dialects/<id>.ts): the only product files that may name every service.
 */
const REGISTRIES = [
  'shared/domain/providers.ts',
  'electron/core/service/providers/profiles.ts',
  'electron/demo-service/dialects/dialect-for.ts',
  // Each service's models that take images, as its own documentation lists them: a table by
  // service, typed Record<ProviderId, …>, so a new service must say what its models take.
  'shared/domain/model-capabilities.ts',
  // Each service's models' own options, as its published schemas name them: a table by service,
  // typed Record<ProviderId, …> (model-param-schemas.ts), beside the capabilities.
  'shared/domain/model-param-schemas.ts',
  // The services history v18 knew, frozen on purpose (never PROVIDER_IDS): a library a later
  // version makes must still index the tasks of the services this version does not know.
  'electron/core/history/newer-service-schema.ts',
];

// Type-level: each of these fails to compile when a provider is missing from it.
const byProvider: Record<string, Record<ProviderId, unknown>> = {
  PROVIDERS,
  keyStatusesSchema: keyStatusesSchema().shape,
  MODEL_CAPABILITIES,
  serviceBaseUrlsSchema: serviceBaseUrlsSchema().shape,
};
/** Every service but the user's own (whose id, `pictor`, is a word of many kinds of text). */
const NAMED_SERVICES = PROVIDER_IDS.filter((id) => PROVIDERS[id].defaultBaseUrl !== null);

function sorted(keys: Iterable<string>): string[] {
  return [...keys].sort();
}

function productFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The words a file's code holds (identifiers and string/template text), comments left out. */
function codeWords(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), 99, true);
  const words: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
      words.push(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return words;
}

/** Whether the file's code names `id` (`fal`, `'fal'`, `"fal, Replicate"`: any case). */
function names(words: readonly string[], id: string): boolean {
  const word = new RegExp(`(^|[^a-z0-9])${id}([^a-z0-9]|$)`, 'i');
  return words.some((text) => word.test(text));
}

describe('per-provider lists', () => {
  it('every per-provider record and schema has exactly the keys of PROVIDER_IDS', () => {
    for (const [name, record] of Object.entries(byProvider))
      expect(sorted(Object.keys(record)), name).toEqual(sorted(PROVIDER_IDS));
    expect([...DEMO_DIALECTS]).toEqual([...PROVIDER_IDS]);
    for (const id of PROVIDER_IDS) expect(profileOf(id).id).toBe(id);
  });

  it('every model whose inputs may travel by upload has its service’s upload step', () => {
    const uploading = PROVIDER_IDS.flatMap((id) =>
      Object.entries(MODEL_CAPABILITIES[id])
        .filter(([, model]) => model.transports.some((transport) => transport.kind === 'upload'))
        .map(([model]) => ({ id, model })),
    );
    // Not vacuous: today fal, Replicate and DashScope models upload.
    expect(new Set(uploading.map(({ id }) => id)).size).toBeGreaterThanOrEqual(3);
    const without = uploading.filter(({ id }) => typeof UPLOADERS[id] !== 'function');
    expect(without, 'models that would upload to a service with no uploader').toEqual([]);
  });

  it('no product file but the registries spells out the services by hand', () => {
    const files = ['shared', 'electron', 'renderer'].flatMap(productFiles);
    const spellingAll = files
      .map((file) => relative(ROOT, join(ROOT, file)).split('\\').join('/'))
      .filter((file) => {
        const words = codeWords(file);
        return NAMED_SERVICES.every((id) => names(words, id));
      });
    expect(sorted(spellingAll)).toEqual(sorted(REGISTRIES));
  });
});
