/**
 * The YAML of the update feed, read strictly. electron-builder writes its channel files with
 * js-yaml's `dump`: block maps and lists of plain, quoted and block scalars, nothing else. A feed
 * that uses anchors, aliases, tags or deep flow collections is not one electron-builder wrote, and
 * those are what make a few hundred bytes cost seconds and gigabytes (an alias bomb expands
 * exponentially; deep nesting overflows the stack). So the text is first scanned token by token
 * (linear, nothing built), then parsed into a document tree that is checked before any value is
 * made from it.
 */
import { CST, Lexer, isAlias, parseDocument, visit } from 'yaml';

/** A channel file of Pictor's is under 1 KiB; release notes make it a few more. */
export const MAX_FEED_TOKENS = 2_000;
/** js-yaml's `dump` writes flow collections only when empty (`[]`, `{}`). */
const MAX_FLOW_DEPTH = 2;

/**
 * A feed Pictor does not accept. `code` is electron-updater's word for unreadable update
 * information, or Pictor's for a prerelease offered to a stable version; the update service turns
 * each into one sentence (update-problems.ts).
 */
export class FeedRefusedError extends Error {
  override readonly name = 'FeedRefusedError';
  constructor(
    message: string,
    readonly code:
      | 'ERR_UPDATER_INVALID_UPDATE_INFO'
      | 'ERR_UPDATER_PRERELEASE_FOR_STABLE' = 'ERR_UPDATER_INVALID_UPDATE_INFO',
  ) {
    super(message);
  }
}

/** Refuses what no channel file needs, before the parser builds anything. */
function scanTokens(text: string): void {
  let tokens = 0;
  let depth = 0;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    if (++tokens > MAX_FEED_TOKENS) {
      throw new FeedRefusedError(`The update feed has more than ${MAX_FEED_TOKENS} YAML tokens.`);
    }
    // After the scalar marker comes the scalar's own text, whatever characters it holds.
    const type = scalarNext ? 'scalar-text' : CST.tokenType(token);
    scalarNext = token === CST.SCALAR;
    if (type === 'anchor' || type === 'alias' || type === 'tag' || type === 'directive-line') {
      throw new FeedRefusedError(`The update feed uses a YAML ${type}, which Pictor refuses.`);
    }
    if (type === 'flow-map-start' || type === 'flow-seq-start') depth += 1;
    if (type === 'flow-map-end' || type === 'flow-seq-end') depth -= 1;
    if (depth > MAX_FLOW_DEPTH) {
      throw new FeedRefusedError('The update feed nests YAML collections too deeply.');
    }
  }
}

/**
 * The value of one YAML document of bounded size (the caller caps the bytes), with no anchor,
 * alias, tag or directive anywhere in it.
 * @throws FeedRefusedError for anything else.
 */
export function readFeedYaml(text: string): unknown {
  scanTokens(text);
  const document = parseDocument(text, { schema: 'core', prettyErrors: false });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) {
    throw new FeedRefusedError(`The update feed is not valid YAML (${problem.code}).`);
  }
  // The scan above already refused these; the tree is checked too, so no tokenizer subtlety can
  // let one through.
  visit(document, (_key, node) => {
    if (isAlias(node) || (node as { anchor?: string }).anchor || (node as { tag?: string }).tag) {
      throw new FeedRefusedError('The update feed uses a YAML anchor, alias or tag.');
    }
  });
  return document.toJS({ maxAliasCount: 0 });
}
