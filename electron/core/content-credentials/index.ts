/**
 * The content-credentials module's face (electron/core/content-credentials/): its doors are the
 * exports below, the only names other modules and the fronts import from it. C2PA verification (a
 * worker, fair across services).
 *
 * The manifest is then verified where hostile bytes cost nothing (`ContentCredentialVerifier`,
 * `electron/ports/`), with the same bounds on either side: the file capped at 64 MiB and the store
 * at 16 MiB (over: `unreadable`, never parsed), 20 s a file, the runner replaced after a
 * WebAssembly trap, no network (remote manifests and OCSP off). The app verifies in the sandboxed
 * image renderer (`core/content-credentials/renderer-verifier.ts`): a `verify` job streams the file
 * by a one-time address to the page, whose Content Credentials worker
 * (`electron/image-renderer/c2pa-worker.ts`) runs `@contentauth/c2pa-wasm` (c2pa-rs; its module
 * built beside the page) and is ended when the job overruns; the page's verdict is untrusted and
 * checked in main against the record's strict shape (`credentialVerdictSchema` in
 * `core/images/renderer-answers.ts`: a lying answer ends the renderer and the file is
 * `unreadable`). Where the renderer cannot run it (it cannot start, the module did not load) the
 * app falls back for the rest of the run to the verifier plain-Node hosts (CLI, tests) use: one
 * worker thread of the main process (`core/content-credentials/c2pa-verifier.ts`), ended by
 * `terminate`, `fetch` refused. Both read through `shared/content-credentials/` (one reader, one
 * verdict mapping). Whichever verifier the host gives, the core hands it stores fairly
 * (`core/content-credentials/fair-verifier.ts`): first a pre-count of the store's JUMBF boxes from
 * their headers alone (`store-census.ts`; the walk stops at the first limit passed) refuses a store
 * far beyond what services sign, `unreadable` without waiting or running (`MAX_STORE_ASSERTIONS`
 * 1,000, `MAX_STORE_BOXES` 5,000, `MAX_STORE_DEPTH` 16: real stores hold a handful of assertions,
 * and c2pa-rs's time grows faster than their number, about 50 s for 8,000); then the stores take
 * turns by service (`CredentialRequest.owner`: the task's base URL, or `library` for a rebuild or
 * an import), one store of a service at a time and two services at once (so the worker-thread
 * verifier runs up to two workers); the stores of one task share a 30 s budget (one store at most
 * 20 s, never past what its task has left, on the clock port), and once a store is cut off the
 * task's remaining stores are `unreadable` without running. A hostile service's stores delay only
 * that service's images. The verdict (`none`, `valid` with the signer, the claim generator,
 * AI-generated from the IPTC digital source type and whether the signer chains to the shipped C2PA
 * trust list, `invalid` with C2PA's codes, `unreadable`) is recorded per image
 * (`ImageRecord.contentCredentials`; history column `has_credentials` for the gallery's filter) and
 * shown in the viewer and task details verdict first, as Content Credentials tools show it
 * (`renderer/components/content-credentials.tsx`, over `verdictKind` in
 * `shared/domain/content-credentials.ts`): a signer on the trust list (a check mark and the name),
 * an unverified signer (a caution mark: "Unverified signer: “…” (not on Pictor's trust list)"),
 * tampered credentials (a warning; C2PA's codes behind a Details disclosure, never in the
 * sentence), unreadable, none, each in its own colour in both themes; a gallery tile whose image
 * carries credentials wears a small CR mark whose verdict is in the tile's accessible name. The
 * signer's and the generator's names are the signer's own words: they go through the one cleaner of
 * names from files and services (`shared/text/shown-name.ts`: no control, format or bidi character,
 * no line separator) when read and when read back, and the window shows each in a `<bdi>`, as it
 * shows the models and the service's address (`renderer/components/isolated-name.tsx`). A verdict
 * read from a folder or an archive keeps only `none`: a signer's name is believed from Pictor's own
 * verification alone, so an import verifies each image it takes in as a download does
 * (`Gallery.checkImage`, on its staged copy), and a rebuild verifies each image that has an XMP
 * sidecar beside it (Pictor writes one only beside an image with a store;
 * `download/found-credentials.ts`, on a copy made in the temp folder through the checked reader, so
 * a rebuild of a large gallery reads no other image again).
 */
export { C2paVerifier, VerifierUnavailableError } from './c2pa-verifier';
export { openFairVerifier } from './open-verifier';
export { RendererCredentialVerifier, type RendererJobRunner } from './renderer-verifier';
export { BUNDLED_TRUST_ANCHORS_FILE, certificateCount, readTrustAnchors } from './trust-anchors';
