/**
 * The input images of a source (`inputs/<sha256>.<ext>`, import-plan.ts) into the library's input
 * store, before its tasks, so an imported edit can be run again offline. Each file is refused on
 * its own, with a sentence, and nothing else is lost: bytes that do not match the manifest's line
 * or the digest the file is named by, a file that is not the image its name says or that fails
 * the store's check (inputs/input-store.ts: signature, header, pixel limit), one past the size an
 * input may have. The same input met again is kept once (the store names files by digest).
 */
import { sentence } from '../../../../shared/i18n/sentence';
import { MAX_INPUT_BYTES } from '../../../../shared/domain/image-inputs';
import { sniffImage } from '../../images';
import { InputStore, InputStoreError } from '../../inputs';
import { isAbort, refusal, throwIfAborted, type Refusal } from './archive-errors';
import type { PlannedInput } from './import-plan';
import { OversizeError, readBounded, sha256Of } from './stream-copy';

/** Imports `inputs` into the store of the gallery at `root`; returns the files refused. */
export async function importInputs(
  inputs: readonly PlannedInput[],
  root: string,
  options: { signal?: AbortSignal; onBytes: (bytes: number) => void },
): Promise<Refusal[]> {
  const store = new InputStore({ root });
  const refused: Refusal[] = [];
  for (const input of inputs) {
    throwIfAborted(options.signal);
    const reason = await importInput(input, store, options);
    if (reason) refused.push(refusal(input.file.path, reason));
  }
  return refused;
}

async function importInput(
  input: PlannedInput,
  store: InputStore,
  options: { signal?: AbortSignal; onBytes: (bytes: number) => void },
) {
  let bytes: Buffer;
  try {
    bytes = await readBounded(await input.file.open(), MAX_INPUT_BYTES, options.signal);
  } catch (error) {
    if (isAbort(error)) throw error;
    return error instanceof OversizeError
      ? sentence('error.lineage.inputTooLarge', { max: MAX_INPUT_BYTES })
      : sentence('error.lineage.inputUnreadable');
  }
  options.onBytes(bytes.length);
  const digest = sha256Of(bytes);
  if (digest !== input.sha256 || (input.listed && input.listed.sha256 !== digest)) {
    return sentence('error.lineage.inputMismatch');
  }
  if (sniffImage(bytes.subarray(0, 12)) !== input.kind)
    return sentence('error.lineage.inputNotImage');
  try {
    await store.put(bytes);
  } catch (error) {
    // The library's own inputs/ that is a link is no fault of the file: the import stops.
    const ours = error instanceof InputStoreError && error.sentence?.key === 'error.inputs.unsafe';
    if (error instanceof InputStoreError && !ours) return sentence('error.lineage.inputNotImage');
    throw error;
  }
  return null;
}
