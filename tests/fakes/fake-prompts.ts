/**
 * The prompt history for the in-memory `window.pictor` (fake-pictor-api.ts): distinct prompts,
 * pinned first then newest, noted by the fake's submit as main's engine notes them. Browser-safe:
 * imports only shared/. The limits (500 kept, 100 pins) are main's, tested over the real history
 * (tests/unit/core/history/prompt-history.test.ts); here nothing is pruned.
 */
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';
import type { PromptEntryOutput } from '../../shared/ipc/prompt-contract';

type Channel = Extract<RequestChannel, `prompts:${string}`>;
type PromptHandlers = {
  [C in Channel]: (input: RequestInput<C>) => RequestOutput<C> | Promise<RequestOutput<C>>;
};

export class FakePrompts {
  private entries: PromptEntryOutput[] = [];

  /** A submit of `prompt` at `at`, as main's engine notes it. */
  note(prompt: string, at: number): void {
    const known = this.entries.find((entry) => entry.prompt === prompt);
    const entry = known
      ? { ...known, lastUsedAt: Math.max(known.lastUsedAt, at), uses: known.uses + 1 }
      : { prompt, lastUsedAt: at, uses: 1, pinned: false };
    this.entries = [entry, ...this.entries.filter((other) => other.prompt !== prompt)];
  }

  private ordered(): PromptEntryOutput[] {
    return [...this.entries].sort(
      (a, b) => Number(b.pinned) - Number(a.pinned) || b.lastUsedAt - a.lastUsedAt,
    );
  }

  private change(prompt: string, next: (entry: PromptEntryOutput) => PromptEntryOutput | null) {
    const known = this.entries.find((entry) => entry.prompt === prompt);
    if (!known) return { changed: false };
    const changed = next(known);
    this.entries = this.entries.flatMap((entry) =>
      entry !== known ? [entry] : changed ? [changed] : [],
    );
    return { changed: changed !== known };
  }

  readonly handlers: PromptHandlers = {
    'prompts:history': ({ query, limit }) => {
      const q = query.trim() === '' ? '' : query.toLowerCase();
      const entries = this.ordered().filter((entry) => entry.prompt.toLowerCase().includes(q));
      return { entries: entries.slice(0, limit) };
    },
    'prompts:pin': ({ prompt, pinned }) =>
      this.change(prompt, (entry) => (entry.pinned === pinned ? entry : { ...entry, pinned })),
    'prompts:forget': ({ prompt }) => this.change(prompt, () => null),
    'prompts:clear': () => {
      const before = this.entries.length;
      this.entries = this.entries.filter((entry) => entry.pinned);
      return { removed: before - this.entries.length };
    },
  };
}
