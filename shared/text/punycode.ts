/**
 * Punycode (RFC 3492) decoding of one host label, so an international host the URL parser gave
 * as `xn--bcher-kva.example` reads as the user typed it (`bücher.example`). Decoding only: the
 * window shows hosts, it never builds them. Pure and bounded (a DNS label is at most 63 chars).
 */
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_LABEL_CHARS = 63;
const MAX_CODE_POINT = 0x10ffff;

function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22; // '0'–'9' are 26–35
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
}

function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

/** One variable-length integer from `encoded` at `pos`: its value and where the next starts. */
function readDelta(encoded: string, pos: number, bias: number): [number, number] | null {
  let value = 0;
  let weight = 1;
  for (let k = BASE; ; k += BASE) {
    if (pos >= encoded.length) return null;
    const digit = digitOf(encoded.charCodeAt(pos++));
    if (digit >= BASE) return null;
    value += digit * weight;
    const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
    if (digit < threshold) return [value, pos];
    weight *= BASE - threshold;
    if (value > MAX_CODE_POINT * MAX_LABEL_CHARS) return null;
  }
}

/** The Unicode text of a Punycode label (without its `xn--`); `null` when it is not valid Punycode. */
export function decodePunycode(encoded: string): string | null {
  if (encoded.length > MAX_LABEL_CHARS) return null;
  const delimiter = Math.max(encoded.lastIndexOf('-'), 0);
  const output = [...encoded.slice(0, delimiter)].map((char) => char.codePointAt(0) ?? 0);
  if (output.some((code) => code >= INITIAL_N)) return null;
  let [n, bias, i] = [INITIAL_N, INITIAL_BIAS, 0];
  for (let pos = delimiter > 0 ? delimiter + 1 : 0; pos < encoded.length;) {
    const read = readDelta(encoded, pos, bias);
    if (read === null) return null;
    const before = i;
    [i, pos] = [i + read[0], read[1]];
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > MAX_CODE_POINT) return null;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}
