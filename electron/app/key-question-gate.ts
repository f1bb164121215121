/**
 * How often main asks "send the key to this other service?" (key-address-question.ts). The
 * question is main's own dialog, but what makes it appear is a `settings:update` from the page,
 * and a compromised page can send one after another, each to another address, until the user
 * clicks the wrong button out of fatigue. So:
 *
 * - One question at a time: while it is on screen, another change of a service address is
 *   refused at once, never queued behind it to appear the moment the first is answered.
 * - After the user keeps the key where it was, a change that would ask again (to any address,
 *   not only the same one: a page can rotate addresses) is refused without asking for a quiet
 *   spell: {@link FIRST_QUIET_MS}, doubled by each further "keep" in a row, up to
 *   {@link MOST_QUIET_MS}. A page looping the question gets a handful of dialogs in its first
 *   hour and four an hour after that. An answer that sends or removes the key, or an hour
 *   without a "keep", starts the count again.
 * - The user's second thought is asked about at once: after the first "keep" of a row, a change
 *   made once the user pressed a key or a mouse button in the window (main counts those as the
 *   OS delivers them, ports/user-gestures.ts: a page cannot make one) is asked about within the
 *   quiet spell, once; a "keep" of that question starts the next, longer spell with no such
 *   exception. A page that waits for the user's presses gains one dialog a row, never a loop.
 *   Without a count of presses (the harnesses), the quiet spell holds for every change.
 *
 * The same rules guard the question before Settings › Local servers allows an address
 * (local-server-question.ts), with its own refusals ({@link QuestionRefusals}).
 */
import type { MainMessageKey } from '../../shared/i18n/main-messages';
import { sentence } from '../../shared/i18n/sentence';
import type { KeyOriginQuestion, UserPrompts } from '../ports/user-prompts';
import { SettingsError } from '../core/settings';

/** The quiet spell after the first "keep". */
export const FIRST_QUIET_MS = 60_000;
/** The longest quiet spell, however many "keep"s in a row. */
export const MOST_QUIET_MS = 15 * 60_000;
/** A "keep" this long after the last one counts as the first again. */
const STREAK_MS = 60 * 60_000;

/** The setting a refusal names, and its sentences (`{seconds}` left in the resting one). */
export interface QuestionRefusals {
  readonly field: string;
  readonly open: MainMessageKey;
  readonly resting: MainMessageKey;
}

/** The key question's: a change of a service's address. */
const KEY_REFUSALS = {
  open: 'error.settings.keyQuestionOpen',
  resting: 'error.settings.keyQuestionResting',
} as const;

export class KeyQuestionGate {
  private open = false;
  private keptAt: number | null = null;
  private kept = 0;
  /** The user's presses counted when the last "keep" was answered. */
  private pressesAtKeep: number | null = null;

  private readonly refusals: QuestionRefusals;

  constructor(
    private readonly now: () => number,
    /** The setting a refusal names (`serviceBaseUrls`), or it and the refusals' sentences. */
    refusals: string | QuestionRefusals,
    /** How many presses the user made in the window (UserGestures); null: not known. */
    private readonly presses: () => number | null = () => null,
  ) {
    this.refusals = typeof refusals === 'string' ? { field: refusals, ...KEY_REFUSALS } : refusals;
  }

  /** The refusal of a change of address asked for while a question is on screen, else null. */
  whileOpen(): SettingsError | null {
    const { open, field } = this.refusals;
    return this.open ? new SettingsError(sentence(open), [field]) : null;
  }

  /**
   * `prompts` asking through this gate.
   * @throws SettingsError (from `confirmKeyOrigin`) in a quiet spell, or while a question is open.
   */
  prompts(prompts: UserPrompts): UserPrompts {
    const ask = (question: KeyOriginQuestion) => prompts.confirmKeyOrigin(question);
    return {
      ...prompts,
      confirmKeyOrigin: (question) =>
        this.ask(
          () => ask(question),
          (answer) => answer === 'cancel',
        ),
    };
  }

  /**
   * Asks with `question` under this gate's rules; `kept(answer)`: the user changed nothing (a
   * "keep", which starts or lengthens the quiet spell).
   * @throws SettingsError in a quiet spell, or while a question is open.
   */
  async ask<A>(question: () => Promise<A>, kept: (answer: A) => boolean): Promise<A> {
    const refused = this.whileOpen() ?? this.resting();
    if (refused) throw refused;
    this.open = true;
    let answer: A;
    try {
      answer = await question();
    } finally {
      this.open = false;
    }
    if (kept(answer)) {
      const now = this.now();
      const inRow = this.keptAt !== null && now - this.keptAt < STREAK_MS;
      this.kept = inRow ? this.kept + 1 : 1;
      this.keptAt = now;
      this.pressesAtKeep = this.presses();
    } else {
      this.kept = 0;
      this.keptAt = null;
    }
    return answer;
  }

  private resting(): SettingsError | null {
    if (this.keptAt === null || this.secondThought()) return null;
    const quiet = Math.min(MOST_QUIET_MS, FIRST_QUIET_MS * 2 ** (this.kept - 1));
    const left = this.keptAt + quiet - this.now();
    if (left <= 0) return null;
    const { resting, field } = this.refusals;
    return new SettingsError(sentence(resting, { seconds: Math.ceil(left / 1000) }), [field]);
  }

  /** After the first "keep" of a row, the user pressed something in the window since. */
  private secondThought(): boolean {
    const now = this.presses();
    const then = this.pressesAtKeep;
    return this.kept === 1 && now !== null && then !== null && now > then;
  }
}
