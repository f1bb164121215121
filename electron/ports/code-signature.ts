/**
 * Apple's `codesign` on the running app (macOS only): whether it carries a real signature.
 * Squirrel.Mac, which installs macOS updates, refuses an update unless the running app and the
 * update are signed by the same identity, so an unsigned or ad-hoc signed copy can only be told
 * that a version is out (app/updates/update-capability.ts). The adapter runs /usr/bin/codesign;
 * tests pass recorded outputs.
 */

/** One run of `codesign`: its exit status and what it printed (it writes its details to stderr). */
export interface CodesignRun {
  /** null when it could not be started at all. */
  readonly status: number | null;
  readonly output: string;
}

export interface CodeSignatureReader {
  /** `codesign --verify --deep --strict <bundle>`: 0 when the signature holds. */
  verify(bundle: string): Promise<CodesignRun>;
  /** `codesign --display --verbose=2 <bundle>`: `Signature=adhoc`, `Authority=…`, `TeamIdentifier=…`. */
  display(bundle: string): Promise<CodesignRun>;
}
