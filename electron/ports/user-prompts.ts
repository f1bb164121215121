import type { CostPrice, SpendingCap } from '../../shared/domain/cost-ledger';
import type { ProviderId } from '../../shared/domain/providers';
import type { MainMessageKey } from '../../shared/i18n/main-messages';
import type { Sentence } from '../../shared/i18n/sentence';

/**
 * Questions only the user can answer, asked in a dialog the main process draws itself (never
 * the page's), so a compromised renderer cannot answer them. Electron's `dialog` in the app, a
 * scripted stand-in in tests.
 */

/**
 * The service address is about to change to another base URL (another origin, or another path
 * on the same origin: another tenant of a shared gateway) while a key is stored.
 */
export interface KeyOriginQuestion {
  /** The stored key's short fingerprint (the key itself is never shown). */
  readonly fingerprint: string | null;
  /** The base URL the key was entered for; null when it was stored before any address was set. */
  readonly from: string | null;
  /** The base URL of the new address (normalised, see checkBaseUrl). */
  readonly to: string;
}

/**
 * `carry`: send the stored key to the new base URL from now on. `forget`: change the address and
 * remove the key (the user will enter the new service's key). `cancel`: change nothing.
 */
export type KeyOriginAnswer = 'carry' | 'forget' | 'cancel';

export interface UserPrompts {
  confirmKeyOrigin(question: KeyOriginQuestion): Promise<KeyOriginAnswer>;
  /**
   * Settings › Local servers is about to allow `addresses` (`host:port`, checked and normalised):
   * requests may then go to a server another user of this computer runs there. True when the
   * user agreed. Absent: never agreed (the page alone cannot add an address).
   */
  confirmLocalServers?(addresses: readonly string[]): Promise<boolean>;
}

/** A sentence of the main catalogue and its values, as a prompt shows it. */
export interface PromptSentence {
  readonly key: MainMessageKey;
  readonly params: Readonly<Record<string, string>>;
}

/** macOS's "Install Command Line Tool…" (app/os/command-line-tool.ts). */
export interface CommandLineToolPrompts {
  /** Asks before `link` is created; true when the user agreed. */
  confirmInstall(link: string): Promise<boolean>;
  /** Shows how it ended: `info` when the command is there, `warning` when it is not. */
  tell(sentence: PromptSentence, tone: 'info' | 'warning'): Promise<void>;
}

/**
 * A hard spending cap about to count less: raised (`to`, in millionths of its unit), removed
 * (`to` null), or, with `price`, left as it is while a price it counts tasks by is lowered,
 * set for a service or model it could not count, changed in basis, or removed so that a lower
 * every-model price applies (`to` null there: no price of its own any more).
 */
export interface CapLoosening {
  readonly cap: SpendingCap;
  readonly to: number | null;
  readonly price?: {
    readonly provider: ProviderId;
    /** '' : the service's every-model price. */
    readonly model: string;
    readonly from: CostPrice | null;
    readonly to: CostPrice | null;
  };
}

/**
 * Raising or removing a hard spending cap: only ever the user's action, asked in main's own
 * dialog, because a request from the page alone may come from a compromised renderer.
 */
export interface CapPrompts {
  /** True when the user agreed to `change`. */
  confirmLooserCap(change: CapLoosening): Promise<boolean>;
}

/** Used where nobody can be asked: the key never moves to another base URL. */
export const refusingPrompts: UserPrompts = {
  confirmKeyOrigin: () => Promise.resolve('cancel'),
};

/**
 * Tasks a hard spending cap refuses (docs/COSTS.md "Spending caps"), which the user may send
 * anyway, this once: the caps that refuse them and the sentence of the first, as main words it.
 */
export interface OverCapQuestion {
  /** The refusal of the first hard cap the tasks would pass. */
  readonly refusal: Sentence;
  /** Every hard cap that refuses them, as it stands now. */
  readonly caps: readonly SpendingCap[];
  /** How many tasks would be sent. */
  readonly tasks: number;
}

/**
 * Sending tasks past a hard spending cap: only ever the user's answer in main's own dialog (the
 * page may be compromised; a request from it alone never passes a hard cap).
 */
export interface OverCapPrompts {
  /** True when the user agreed to send the tasks past every cap the question names. */
  confirmOverHardCap(question: OverCapQuestion): Promise<boolean>;
}
