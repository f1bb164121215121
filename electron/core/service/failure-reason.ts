/**
 * A failed task's reason, wherever its service put it. Each profile reads the fields its service
 * documents (providers/*.ts); services, gateways and proxies also put a reason where no document
 * says, so every profile's reading of an answer that ends a task (failed or moderated) falls back,
 * here and only here, to the first of the answer's `error`, `message`, `detail`, `details` that
 * is a string, or an object with a string `message`. What is found is bounded and cleaned as every
 * reason is (shared/service/wire.ts `describeServiceError`), and read from the key-scrubbed answer
 * too (answer-parsing.ts), so the fallback cannot show what the profile's own fields would not.
 * Those fields are read in the task's own part of the answer (`ownAnswer`, a profile's
 * `ownAnswer`): an answer about several tasks (ComfyUI's history, which a proxy may answer whole)
 * never gives a task a reason that stands beside its entry, another prompt's or the proxy's own.
 */
import { describeServiceError } from '../../../shared/service/wire';
import type { Reading } from './reading';
import { objectOf } from './providers/provider-profile';

/** Where services put a reason beside (or instead of) the fields their documents name. */
const COMMON_FIELDS = ['error', 'message', 'detail', 'details'] as const;

/** The states whose answer says why the task ended without images. */
const ENDED = new Set<unknown>(['failed', 'moderated']);

/** `value` when it is a non-blank string, or its non-blank string `message`. */
function wordsIn(value: unknown): string | undefined {
  const words = typeof value === 'string' ? value : objectOf(value)['message'];
  return typeof words === 'string' && words.trim() !== '' ? words : undefined;
}

/** The first reason in words among the answer's common fields, or undefined. */
function commonReason(json: unknown): string | undefined {
  const answer = objectOf(json);
  for (const field of COMMON_FIELDS) {
    const words = wordsIn(answer[field]);
    if (words !== undefined) return words;
  }
  return undefined;
}

/**
 * True when `error` says something in words: not nothing, and not only its own JSON (an object
 * with no message, code or text in it reads as `{"foo":1}`, which explains nothing).
 */
function saysWhy(error: unknown): boolean {
  const said = describeServiceError(error);
  if (said === '' || typeof error === 'string') return said !== '';
  try {
    return said !== describeServiceError(JSON.stringify(error));
  } catch {
    return true;
  }
}

/** An empty object or list: no reason at all, never shown as `{}`. */
function isEmpty(error: unknown): boolean {
  if (Array.isArray(error)) return error.length === 0;
  return typeof error === 'object' && error !== null && Object.keys(error).length === 0;
}

/**
 * `read` (a profile's reading of a task answer) with the common fallback: an ended task whose
 * profile found no reason in words takes the first common field's of `ownAnswer(json)`, the part
 * of the answer about that task (the whole answer unless the profile says otherwise); with none
 * there, an empty object or list the profile found is no reason (the task reads "failed without
 * a reason").
 */
export function withCommonReason(read: Reading, ownAnswer: Reading = (json) => json): Reading {
  return (json) => {
    const reading = read(json);
    const fields = objectOf(reading);
    if (!ENDED.has(fields['status']) || saysWhy(fields['error'])) return reading;
    const found = commonReason(ownAnswer(json));
    if (found !== undefined) return { ...fields, error: found };
    if (!isEmpty(fields['error'])) return reading;
    const { error: _none, ...rest } = fields;
    return rest;
  };
}
