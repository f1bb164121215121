/** An option's name as services spell them, never one that names an object's own machinery. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

export function isParamName(name: string): boolean {
  return PARAM_NAME.test(name) && !RESERVED.has(name);
}
