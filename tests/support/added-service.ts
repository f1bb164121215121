/**
 * What adding a service costs (tests/unit/lint/stub-provider.test.ts): a stub provider added the
 * way an engineer would start one (its id in PROVIDER_IDS, its profile file) to an overlay of the
 * product sources, never the working tree, and the product files the compiler then asks to
 * change: every registry typed `Record<ProviderId, …>` that misses it, every switch that must
 * name it. The typecheck finds them in a program reusing its own trees and records them
 * (tests/support/typecheck.ts); the test finds them itself when the record is not of today's files.
 */
import { join, relative } from 'node:path';
import ts from 'typescript';
import { projectConfig } from './dead-exports';
import { hostReusing } from './reused-sources';

const PRODUCT = /^(electron|renderer|shared)\//;
const PROVIDERS = 'shared/domain/providers.ts';
const PROFILE = 'electron/core/service/providers/stub.ts';
/** What a file that could hold a per-service registry or switch mentions. */
const SPEAKS_OF_PROVIDERS = /provider|dialect|keyStatuses/i;

const STUB_PROFILE = `
import { PROVIDERS } from '../../../../shared/domain/providers';
import { falProfile } from './fal';
import type { ProviderProfile } from './provider-profile';

export const stubProfile: ProviderProfile = { ...falProfile, id: 'stub', facts: PROVIDERS.stub };
`;

/** providers.ts's text with the stub's id added to PROVIDER_IDS. */
function withStubId(providers: string): string {
  const withStub = providers.replace(
    /(PROVIDER_IDS = \[[^\]]*)\] as const/,
    "$1, 'stub'] as const",
  );
  if (withStub === providers) throw new Error('PROVIDER_IDS is no longer one array literal.');
  return withStub;
}

/** The product sources of `root` with the stub's id and profile added. */
function overlay(root: string): Map<string, string> {
  const file = join(root, PROVIDERS);
  return new Map([
    [file, withStubId(ts.sys.readFile(file) ?? '')],
    [join(root, PROFILE), STUB_PROFILE],
  ]);
}

/**
 * The product files (relative to `root`, sorted) the compiler reports errors in once a stub
 * service is added; `reuse` is a program of the same files whose syntax trees are taken (the
 * typecheck's).
 */
export function filesAskedForAStub(root: string, reuse?: ts.Program): string[] {
  const files = overlay(root);
  const profileFile = join(root, PROFILE);
  const parsed = projectConfig(root);
  const rootNames = parsed.fileNames.filter((name) => PRODUCT.test(relative(root, name)));
  const host = hostReusing(parsed.options, reuse);
  const { getSourceFile, readFile, fileExists } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = files.get(name);
    if (text === undefined) return getSourceFile.call(host, name, language, onError, create);
    return ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram({
    rootNames: [...rootNames, profileFile],
    options: { ...parsed.options, noEmit: true, incremental: false },
    host,
  });
  const asked = new Set<string>();
  for (const source of program.getSourceFiles()) {
    const path = relative(root, source.fileName);
    if (!PRODUCT.test(path) || source.fileName === profileFile) continue;
    // A file that never speaks of providers or dialects has no registry of them to complete:
    // checking only the others keeps the measure short.
    if (!SPEAKS_OF_PROVIDERS.test(source.text)) continue;
    if (program.getSemanticDiagnostics(source).length > 0) asked.add(path.split('\\').join('/'));
  }
  return [...asked].sort();
}
