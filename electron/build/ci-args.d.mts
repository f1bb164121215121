/** Types of ci-args.mjs (plain JavaScript, so the capability probe can use it without tsx). */

/** An option a script takes: a switch (`--uninstall`) or one with a value (`--release-dir DIR`). */
export interface CiOption {
  readonly type: 'boolean' | 'string';
}

/** What a CI script takes on its command line. */
export interface CiScript<O extends Record<string, CiOption>> {
  /** The npm script, as messages name it: `ci:install`. */
  readonly name: string;
  /** How it is used: `npm run ci:install -- [--release-dir DIR] [--uninstall]`. */
  readonly usage: string;
  readonly options: O;
  /** The command words it takes, exactly one of them (none: it takes no word). */
  readonly commands?: readonly string[];
  /** Command words after which the rest of the line is passed on as given (`previous`). */
  readonly passOn?: readonly string[];
  /** It takes any words (electron-builder's target names), passed on. */
  readonly anyWords?: boolean;
}

/** An option's value: a switch is true when given; absent options are undefined. */
export type CiValues<O extends Record<string, CiOption>> = {
  readonly [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string;
};

export type CiArgs<O extends Record<string, CiOption>> =
  | {
      readonly ok: true;
      readonly values: CiValues<O>;
      /** The command word given, or null when the script takes none. */
      readonly command: string | null;
      readonly positionals: readonly string[];
      /** What followed a `passOn` command word, untouched. */
      readonly rest: readonly string[];
    }
  | { readonly ok: false; readonly problem: string };

export function parseCiArgs<const O extends Record<string, CiOption>>(
  script: CiScript<O>,
  argv: readonly string[],
): CiArgs<O>;

export function ciArgsOrExit<const O extends Record<string, CiOption>>(
  script: CiScript<O>,
  argv: readonly string[],
): Extract<CiArgs<O>, { ok: true }>;
