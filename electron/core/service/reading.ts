/** A profile's reading of parsed JSON (see providers/provider-profile.ts); identity for none. */
export type Reading = (json: unknown) => unknown;
