/**
 * The boards' tree as the sidebar draws it: main lists the boards by path (parents before
 * children); here each gets its depth, its name, whether it has boards inside, and its place
 * under its parent (siblings by name, in the language's order), folded parents hiding what is
 * inside them.
 */
import type { BoardRowOutput } from '../../../shared/ipc/triage-contract';
import { boardKey } from '../../../shared/domain/triage';

export interface BoardNode {
  readonly key: string;
  readonly path: string;
  /** The last name of the path. */
  readonly name: string;
  /** 1 for a board at the top. */
  readonly depth: number;
  readonly images: number;
  readonly hasChildren: boolean;
}

/** The last name of a board's path. */
export function boardName(path: string): string {
  return path.split('/').at(-1) ?? path;
}

/** Every board in tree order (a parent, then what is inside it), folded or not. */
export function boardNodes(rows: readonly BoardRowOutput[]): BoardNode[] {
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  const children = new Map<string | null, BoardRowOutput[]>();
  const keys = new Set(rows.map((row) => row.key));
  for (const row of rows) {
    const parent = row.parent === null ? null : boardKey(row.parent);
    // A row whose parent is not listed is shown at the top rather than lost.
    const at = parent !== null && keys.has(parent) ? parent : null;
    children.set(at, [...(children.get(at) ?? []), row]);
  }
  const nodes: BoardNode[] = [];
  const walk = (parent: string | null, depth: number): void => {
    const siblings = [...(children.get(parent) ?? [])].sort((a, b) =>
      collator.compare(boardName(a.path), boardName(b.path)),
    );
    for (const row of siblings) {
      const hasChildren = (children.get(row.key)?.length ?? 0) > 0;
      nodes.push({ ...pick(row), name: boardName(row.path), depth, hasChildren });
      walk(row.key, depth + 1);
    }
  };
  walk(null, 1);
  return nodes;
}

const pick = ({ key, path, images }: BoardRowOutput) => ({ key, path, images });

/** The boards shown: those whose parents are all unfolded. */
export function visibleNodes(
  nodes: readonly BoardNode[],
  folded: ReadonlySet<string>,
): BoardNode[] {
  const shown: BoardNode[] = [];
  let hiddenUnder: string | null = null;
  for (const node of nodes) {
    if (hiddenUnder !== null && node.key.startsWith(`${hiddenUnder}/`)) continue;
    hiddenUnder = folded.has(node.key) ? node.key : null;
    shown.push(node);
  }
  return shown;
}
