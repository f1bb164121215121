/**
 * A compiler host that takes each file's syntax tree from a program already built (the
 * typecheck's, tests/support/typecheck.ts) instead of reading and parsing it again: a second
 * program of the project's files then costs only its own type check (TypeScript binds a reused
 * tree once for every program that holds it, as its language service does).
 */
import ts from 'typescript';

/** A host for `options`; with `reuse`, its trees are handed out for the files it holds. */
export function hostReusing(options: ts.CompilerOptions, reuse?: ts.Program): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  if (!reuse) return host;
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) =>
    (create === true ? undefined : reuse.getSourceFile(name)) ??
    getSourceFile(name, language, onError, create);
  return host;
}
