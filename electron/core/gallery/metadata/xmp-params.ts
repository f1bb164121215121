/**
 * The model's own options a task asked for (its request's `params`, shared/domain/model-params.ts)
 * in Pictor's XMP, so `rebuild` gives them back to a task that lost its sidecar. An unordered
 * `pictor:Params` Bag of `Name`/`Type`/`Value` structures (the Bag and its escapes are the
 * template's, xmp-template.ts), which exiftool reads as `Params` (with `-struct`) or as the lists
 * `ParamsName`/`ParamsType`/`ParamsValue`. The type keeps `12` the number apart from `"12"` the
 * text: `Number`, `Boolean` (`True`/`False`, as XMP writes booleans) or `Text`.
 *
 * The elements are written only while they take at most {@link MAX_PARAMS_XMP_BYTES}: with the
 * longest prompt escaped twice and a template just under its own cap, a packet stays under the
 * XMP sidecar's cap. Options past it stay in the task's pictor.json alone.
 *
 * Read back from files anyone could write: only this exact layout, at most {@link MAX_PARAMS}
 * items (the walk stops at one more), each value typed as written, then the same schema a
 * record's (and an archive's) params go through; anything else reads as the options dropped,
 * never as a reason to refuse the rest of the packet.
 */
import {
  MAX_PARAMS,
  paramValuesSchema,
  type ParamValue,
  type ParamValues,
} from '../../../../shared/domain/model-params';
import { bagElements, bagIn, type BagItem } from './xmp-template';

/** The options' elements, in UTF-8 bytes, past which they are not written. */
export const MAX_PARAMS_XMP_BYTES = 32 * 1024;

const CONTAINER = 'pictor:Params';

function itemOf(name: string, value: ParamValue): BagItem {
  if (typeof value === 'boolean') return { name, type: 'Boolean', value: value ? 'True' : 'False' };
  if (typeof value === 'number') return { name, type: 'Number', value: String(value) };
  return { name, type: 'Text', value };
}

/** The options' elements, indented as the packet's others are; '' for none or past the cap. */
export function paramsElements(params: ParamValues | undefined): string {
  const entries = Object.entries(params ?? {});
  if (entries.length === 0) return '';
  const body = bagElements(
    CONTAINER,
    entries.map(([name, value]) => itemOf(name, value)),
  );
  return Buffer.byteLength(body, 'utf8') <= MAX_PARAMS_XMP_BYTES ? body : '';
}

/** A number as JavaScript writes a finite one (String(n)), at most 32 characters. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]\d+)?$/;

/** The typed value of a read item; the text itself when its type is unknown or it does not parse. */
function valueOf(item: BagItem): unknown {
  switch (item.type) {
    case 'Text':
      return item.value;
    case 'Boolean':
      return item.value === 'True' ? true : item.value === 'False' ? false : item;
    case 'Number':
      return item.value.length <= 32 && NUMBER.test(item.value) ? Number(item.value) : item;
    default:
      // No type, or one Pictor never writes: an object, which the schema refuses.
      return item;
  }
}

/**
 * The options in a packet of Pictor's layout: `null` when it names none, `dropped` when it names
 * some that are damaged, more than {@link MAX_PARAMS}, or break the params schema (the rest of the
 * packet holds).
 */
export function readXmpParams(xmp: string): { params: ParamValues } | 'dropped' | null {
  if (!xmp.includes(`<${CONTAINER}>`)) return null;
  const items = bagIn(xmp, CONTAINER, MAX_PARAMS);
  if (items === null) return 'dropped';
  // An own `__proto__` key stays one here, for the schema to refuse (a plain object drops it).
  const raw = Object.fromEntries(items.map((item) => [item.name, valueOf(item)]));
  const parsed = paramValuesSchema().safeParse(raw);
  return parsed.success && Object.keys(parsed.data).length > 0
    ? { params: parsed.data }
    : 'dropped';
}
