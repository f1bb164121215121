/**
 * A change of the prices or caps as a front asks for it: every hard cap it would let count less
 * (cap-loosening.ts) is put to the front's question first (the `CapPrompts` port: the app asks in
 * main's own dialog), and nothing changes unless the user agreed to every one. Without a question
 * (nobody can be asked) a hard cap never counts less. The fronts only bind their question here.
 */
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import type { CapPrompts } from '../../ports/user-prompts';
import type { CostBook, CostChange } from './cost-book';

type ChangedBook = Pick<
  CostBook,
  'loosenings' | 'setPrice' | 'clearPrice' | 'setCap' | 'clearCaps'
>;

/** Refuses (nothing changed) unless `question` agreed to every loosening of `change`. */
async function agreed(book: ChangedBook, question: CapPrompts | undefined, change: CostChange) {
  for (const loosening of book.loosenings(change)) {
    if (!question || !(await question.confirmLooserCap(loosening))) {
      throw new UserFacingError(sentence('error.costs.capKept'), { code: 'failed' });
    }
  }
}

/** Applies `change` once the user agreed; how many prices or caps it set or cleared. */
export async function changeAsked(
  book: ChangedBook,
  question: CapPrompts | undefined,
  change: CostChange,
): Promise<number> {
  await agreed(book, question, change);
  switch (change.kind) {
    case 'setCap':
      book.setCap(change.cap);
      return 1;
    case 'clearCap':
      return book.clearCaps(change.key);
    case 'setPrice':
      book.setPrice(change.price);
      return 1;
    case 'clearPrice': {
      const { provider, model, unit } = change.key;
      return book.clearPrice(provider, model, unit) ? 1 : 0;
    }
  }
}
