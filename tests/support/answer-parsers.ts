/**
 * The service answer parsers as most tests call them: the answer alone, without the JSON it was
 * read from (which the product keeps to read the answer's cost, profile-answers.ts).
 */
import { readSubmitAnswer, readTaskAnswer } from '../../electron/core/service/answer-parsing';

export function parseSubmitAnswer(...args: Parameters<typeof readSubmitAnswer>) {
  return readSubmitAnswer(...args).answer;
}

export function parseTaskAnswer(...args: Parameters<typeof readTaskAnswer>) {
  return readTaskAnswer(...args).task;
}
