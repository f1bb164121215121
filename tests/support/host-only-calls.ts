/**
 * A lint of the journeys (tests/e2e/specs): what only one host can observe or do is used only
 * where that host runs. `ipcPayloads()` is recorded by the chromium host alone; `osCalls()` by both
 * for the actions in RECORDED_ON_EVERY_HOST, by the chromium host alone for the rest;
 * `advanceClock()` moves the chromium host's clock and `setNetworkOnline()` tells its app the
 * network changed; both throw on Electron. A use is guarded when it
 * is
 *
 * - inside the `then` branch of an `if` whose condition says `host === 'chromium'` (or
 *   `hostName() === 'chromium'`), or
 * - in a spec scoped to the chromium host (a top-level `test.skip(hostName() !== 'chromium', …)`),
 * - or, for `osCalls()`, when its result is filtered to one action both hosts record
 *   (`.osCalls().filter((call) => call.action === 'reveal')`).
 *
 * Anything else is a journey that passes on one host and times out or lies on another (journey
 * 17 polled `osCalls()` for a reveal that the Electron host never recorded).
 */
import ts from 'typescript';

export interface HostOnlyUse {
  readonly file: string;
  readonly line: number;
  readonly call: 'ipcPayloads' | 'osCalls' | 'advanceClock' | 'setNetworkOnline';
}

const HOST_ONLY = new Set(['ipcPayloads', 'osCalls', 'advanceClock', 'setNetworkOnline']);
const CHROMIUM_ONLY = /\bhost(?:Name\(\))?\s*===\s*'chromium'/;
const SCOPED = /^test\.skip\(\s*hostName\(\)\s*!==\s*'chromium'/m;

/** Whether `node` sits in the `then` branch of an `if` on the chromium host. */
function behindChromiumGuard(node: ts.Node, source: ts.SourceFile): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (
      ts.isIfStatement(parent) &&
      parent.thenStatement === child &&
      CHROMIUM_ONLY.test(parent.expression.getText(source))
    )
      return true;
  }
  return false;
}

/** The action literal `filter((c) => c.action === 'x')` keeps, when `call` is filtered so. */
function filteredAction(call: ts.CallExpression, source: ts.SourceFile): string | null {
  const access = call.parent;
  if (!ts.isPropertyAccessExpression(access) || access.name.text !== 'filter') return null;
  const filter = access.parent;
  if (!ts.isCallExpression(filter)) return null;
  const [predicate] = filter.arguments;
  if (!predicate || !ts.isArrowFunction(predicate)) return null;
  const body = predicate.body;
  if (!ts.isBinaryExpression(body)) return null;
  if (body.operatorToken.kind !== ts.SyntaxKind.EqualsEqualsEqualsToken) return null;
  if (!/\.action$/.test(body.left.getText(source))) return null;
  return ts.isStringLiteral(body.right) ? body.right.text : null;
}

/** Every unguarded use of a host-only record in one spec's source. */
export function unguardedHostOnlyCalls(
  text: string,
  file: string,
  recordedOnEveryHost: readonly string[],
): HostOnlyUse[] {
  if (SCOPED.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: HostOnlyUse[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      HOST_ONLY.has(node.expression.name.text)
    ) {
      const call = node.expression.name.text as HostOnlyUse['call'];
      const action = call === 'osCalls' ? filteredAction(node, source) : null;
      const everywhere = action !== null && recordedOnEveryHost.includes(action);
      if (!everywhere && !behindChromiumGuard(node, source)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({ file, line: line + 1, call });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
