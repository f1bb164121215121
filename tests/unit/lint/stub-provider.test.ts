/**
 * Adding a service is a profile plus at most five product files (docs/ARCHITECTURE.md, "Adding a
 * service"). This adds a stub provider the way an engineer would start one (its id in
 * PROVIDER_IDS, its profile file) to an overlay of the product sources, never the working tree,
 * and counts the product files the compiler then asks to change: every registry typed
 * `Record<ProviderId, …>` that misses it, every switch that must name it.
 */
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectConfig } from '../../support/dead-exports';

const ROOT = join(__dirname, '../../..');
const PRODUCT = /^(electron|renderer|shared)\//;
const PROVIDERS_FILE = join(ROOT, 'shared/domain/providers.ts');
const PROFILE_FILE = join(ROOT, 'electron/core/service/providers/stub.ts');
/** What a file that could hold a per-service registry or switch mentions. */
const SPEAKS_OF_PROVIDERS = /provider|dialect|keyStatuses/i;
/** The most product files a new service may need besides its own profile. */
const MOST_FILES = 5;

const STUB_PROFILE = `
import { PROVIDERS } from '../../../../shared/domain/providers';
import { falProfile } from './fal';
import type { ProviderProfile } from './provider-profile';

export const stubProfile: ProviderProfile = { ...falProfile, id: 'stub', facts: PROVIDERS.stub };
`;

/** The product sources, with the stub's id added to PROVIDER_IDS and its profile beside the others. */
function overlay(): Map<string, string> {
  const providers = ts.sys.readFile(PROVIDERS_FILE) ?? '';
  const withStub = providers.replace(
    /(PROVIDER_IDS = \[[^\]]*)\] as const/,
    "$1, 'stub'] as const",
  );
  expect(withStub, 'PROVIDER_IDS is one array literal in providers.ts').not.toBe(providers);
  return new Map([
    [PROVIDERS_FILE, withStub],
    [PROFILE_FILE, STUB_PROFILE],
  ]);
}

/** The product files the compiler reports errors in, relative to the root, sorted. */
function filesTheCompilerAsksFor(files: ReadonlyMap<string, string>): string[] {
  const parsed = projectConfig(ROOT);
  const rootNames = parsed.fileNames.filter((name) => PRODUCT.test(relative(ROOT, name)));
  const host = ts.createCompilerHost(parsed.options, true);
  const { getSourceFile, readFile, fileExists } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = files.get(name);
    if (text === undefined) return getSourceFile.call(host, name, language, onError, create);
    return ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram({
    rootNames: [...rootNames, PROFILE_FILE],
    options: { ...parsed.options, noEmit: true, incremental: false },
    host,
  });
  const asked = new Set<string>();
  for (const source of program.getSourceFiles()) {
    const path = relative(ROOT, source.fileName);
    if (!PRODUCT.test(path) || source.fileName === PROFILE_FILE) continue;
    // A file that never speaks of providers or dialects has no registry of them to complete:
    // checking only the others keeps the test short.
    if (!SPEAKS_OF_PROVIDERS.test(source.text)) continue;
    if (program.getSemanticDiagnostics(source).length > 0) asked.add(path);
  }
  return [...asked].sort();
}

describe('adding a service', () => {
  it(`is a profile plus at most ${MOST_FILES} product files the compiler asks for`, () => {
    const asked = filesTheCompilerAsksFor(overlay());
    // The stub is really missing somewhere: the registry of facts names every provider.
    expect(asked).toContain('shared/domain/providers.ts');
    expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(MOST_FILES);
  }, 180_000);
});
