/**
 * macOS's "Install Command Line Tool…": a link at /usr/local/bin/pictor to the `pictor` script
 * inside the app (Contents/Resources/bin/pictor, which starts the app's binary as the CLI), made
 * after the user agreed. Nothing that is not Pictor's is ever replaced: an existing file, folder
 * or link elsewhere stays as it is, and the link is created with an exclusive call, so one made
 * in between is not overwritten either. A link to another copy of Pictor (moved, renamed, an
 * older one) is replaced. Permission denied ends with the command to run in Terminal instead.
 */
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import type { CommandLineToolPrompts, PromptSentence } from '../../ports/user-prompts';
import { systemErrorCode } from '../../core/errors';
import { COMMAND_LINK } from './command-link';

export { COMMAND_LINK };

/** What is at a path, without following a final link. */
export type PathEntry =
  | { readonly kind: 'missing' }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'other' };

/** The file operations the install needs (node:fs in the app, a fake in tests). */
export interface CommandLineToolFs {
  inspect(path: string): Promise<PathEntry>;
  /** Creates a symbolic link at `path`; fails (EEXIST) when anything is there. */
  symlink(target: string, path: string): Promise<void>;
  /** Removes the link at `path` (never what it points to). */
  unlink(path: string): Promise<void>;
}

export type InstallOutcome =
  | {
      readonly kind: 'installed' | 'already' | 'not-pictors' | 'denied' | 'failed';
      readonly sentence: PromptSentence;
    }
  | { readonly kind: 'cancelled' };

/** How an install ended that the user is told about. */
export type ToldOutcome = Exclude<InstallOutcome, { kind: 'cancelled' }>;

export interface InstallOptions {
  readonly fs: CommandLineToolFs;
  readonly prompts: CommandLineToolPrompts;
  /** This app's script: `<Pictor.app>/Contents/Resources/bin/pictor`. */
  readonly target: string;
  readonly link?: string;
}

/** A link to the `pictor` script of some Pictor bundle (this one or another). */
function isPictorsCommand(target: string): boolean {
  return /\.app\/Contents\/Resources\/bin\/pictor$/.test(target);
}

function said(key: MainMessageKey, params: Record<string, string>): PromptSentence {
  return { key, params };
}

/** `value` as one word for Terminal's shell (zsh, bash): single-quoted, nothing expands. */
function quoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** What to tell when creating the link failed with `error`. */
function failure(error: unknown, link: string, target: string): ToldOutcome {
  const code = systemErrorCode(error);
  if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') {
    // ENOENT: no /usr/local/bin yet, which only an administrator can make.
    const folder = link.slice(0, link.lastIndexOf('/')) || '/';
    const command = `sudo mkdir -p ${quoted(folder)} && sudo ln -sf ${quoted(target)} ${quoted(link)}`;
    return { kind: 'denied', sentence: said('commandLineTool.denied', { link, command }) };
  }
  if (code === 'EEXIST')
    return { kind: 'not-pictors', sentence: said('commandLineTool.notPictors', { link }) };
  return {
    kind: 'failed',
    sentence: said('commandLineTool.failed', { link, reason: code ?? 'unknown error' }),
  };
}

/** Asks, then creates (or renews) the link; tells the user how it ended, and returns that. */
export async function installCommandLineTool(options: InstallOptions): Promise<InstallOutcome> {
  const { fs, prompts, target } = options;
  const link = options.link ?? COMMAND_LINK;
  const existing = await fs.inspect(link);
  let outcome: ToldOutcome;
  if (existing.kind === 'link' && existing.target === target) {
    outcome = { kind: 'already', sentence: said('commandLineTool.alreadyInstalled', { link }) };
  } else if (
    existing.kind === 'other' ||
    (existing.kind === 'link' && !isPictorsCommand(existing.target))
  ) {
    outcome = { kind: 'not-pictors', sentence: said('commandLineTool.notPictors', { link }) };
  } else {
    if (!(await prompts.confirmInstall(link))) return { kind: 'cancelled' };
    outcome = await create(fs, existing, link, target);
  }
  const told = outcome.kind === 'installed' || outcome.kind === 'already';
  await prompts.tell(outcome.sentence, told ? 'info' : 'warning');
  return outcome;
}

async function create(
  fs: CommandLineToolFs,
  existing: PathEntry,
  link: string,
  target: string,
): Promise<ToldOutcome> {
  try {
    // Another Pictor's link: replaced; anything else was refused before the question.
    if (existing.kind === 'link') await fs.unlink(link);
    await fs.symlink(target, link);
    return { kind: 'installed', sentence: said('commandLineTool.installed', { link }) };
  } catch (error) {
    return failure(error, link, target);
  }
}
