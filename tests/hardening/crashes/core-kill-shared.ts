/** What core-kill.test.ts and its worker both need to agree on. */

/** The key of the demo service's default account. */
export const DEMO_KEY = 'demo';

/** Size of every generated image (small: the test is about crashes, not pixels). */
export const IMAGE_SIZE = '256x256';

/** The phases the worker announces before it starts them. */
export const PHASES = ['submit', 'poll', 'download', 'history', 'thumbnail', 'sidecar'] as const;
export type Phase = (typeof PHASES)[number];

/** Every task's prompt names its number, so the parent can match service tasks to records. */
export function promptOf(task: number): string {
  return `crash task ${String(task).padStart(4, '0')}`;
}

/** The task number in a prompt made by {@link promptOf}, or `null`. */
export function taskOfPrompt(prompt: string): number | null {
  const match = /^crash task (\d{4})$/.exec(prompt);
  return match ? Number(match[1]) : null;
}
