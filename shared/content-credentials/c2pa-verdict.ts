/**
 * Turns what @contentauth/c2pa-wasm's reader reports (its manifest store JSON) into the verdict
 * Pictor records. The report describes a file anyone could have crafted: only the few fields used
 * are read, each through a schema, each name cleaned (shared/text/shown-name.ts) and cut to the
 * record's limit; anything else is ignored.
 *
 * c2pa-rs decides the state itself (`validation_state`): `Invalid` when any check failed (a hash,
 * the signature, the certificate), `Valid` when everything verified but the signer's certificate
 * does not chain to a trust anchor (`signingCredential.untrusted`), `Trusted` when it does.
 * Runs where the bytes are read (c2pa-read.ts): the Node hosts' worker thread and the sandboxed
 * image renderer's page; imports carry `.ts` for Node's type stripping.
 */
import { z } from 'zod';
import {
  MAX_CREDENTIAL_CODES,
  MAX_CREDENTIAL_NAME_CHARS,
  type CredentialVerdict,
} from '../domain/content-credentials.ts';
import { cleanName as shownName } from '../text/shown-name.ts';

/** IPTC digital source types that say a trained model made (all or part of) the content. */
const AI_SOURCE_TYPES = new Set([
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
  'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
]);

const status = z.object({ code: z.string() });
const action = z.object({ digitalSourceType: z.string().optional() }).passthrough();
const assertion = z.object({
  label: z.string(),
  data: z.unknown(),
});
const manifest = z.object({
  claim_generator: z.string().optional(),
  claim_generator_info: z
    .array(z.object({ name: z.string().optional(), version: z.string().optional() }).passthrough())
    .optional(),
  assertions: z.array(assertion).optional(),
  signature_info: z
    .object({ issuer: z.string().optional(), common_name: z.string().optional() })
    .passthrough()
    .optional(),
});
const report = z.object({
  active_manifest: z.string().optional(),
  manifests: z.record(z.string(), z.unknown()).optional(),
  validation_state: z.enum(['Invalid', 'Valid', 'Trusted']).optional(),
  validation_status: z.array(status).optional(),
  validation_results: z
    .object({
      activeManifest: z
        .object({ failure: z.array(status).optional() })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .optional(),
});
type Manifest = z.infer<typeof manifest>;

/**
 * A name as the record keeps it: no control, format or bidi character and no line separator
 * (a certificate's organisation could otherwise read as another signer and turn its line
 * around), cut to the limit; undefined when empty.
 */
function cleanName(text: string | undefined): string | undefined {
  return shownName(text, MAX_CREDENTIAL_NAME_CHARS);
}

function generatorOf(active: Manifest): string | undefined {
  const info = active.claim_generator_info?.[0];
  if (info?.name) return cleanName(info.version ? `${info.name} ${info.version}` : info.name);
  return cleanName(active.claim_generator);
}

function aiGenerated(active: Manifest): boolean {
  return (active.assertions ?? [])
    .filter((item) => /^c2pa\.actions(\.v\d+)?$/.test(item.label))
    .flatMap((item) => {
      const actions = z.object({ actions: z.array(action) }).safeParse(item.data);
      return actions.success ? actions.data.actions : [];
    })
    .some((item) => AI_SOURCE_TYPES.has(item.digitalSourceType ?? ''));
}

function codesOf(parsed: z.infer<typeof report>): string[] {
  const failures =
    parsed.validation_results?.activeManifest?.failure ?? parsed.validation_status ?? [];
  const codes = failures
    .map((item) => item.code)
    .filter((code) => /^[A-Za-z0-9._-]{1,100}$/.test(code));
  return [...new Set(codes)].slice(0, MAX_CREDENTIAL_CODES);
}

/** The verdict for the reader's JSON report (`WasmReader.json()`, parsed). */
export function verdictOf(json: unknown): CredentialVerdict {
  const parsed = report.safeParse(json);
  if (!parsed.success || !parsed.data.validation_state) return { state: 'unreadable' };
  const label = parsed.data.active_manifest;
  const activeJson = label === undefined ? undefined : parsed.data.manifests?.[label];
  const active = manifest.safeParse(activeJson ?? {});
  const details = active.success ? active.data : {};
  const signer = cleanName(details.signature_info?.issuer ?? details.signature_info?.common_name);
  if (parsed.data.validation_state === 'Invalid' || !signer || activeJson === undefined) {
    const codes = codesOf(parsed.data);
    return { state: 'invalid', codes, ...(signer ? { signer } : {}) };
  }
  const generator = generatorOf(details);
  return {
    state: 'valid',
    signer,
    ...(generator ? { generator } : {}),
    trusted: parsed.data.validation_state === 'Trusted',
    aiGenerated: aiGenerated(details),
  };
}
