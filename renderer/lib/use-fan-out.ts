/**
 * The page's side of a fan-out (a compare, an edit: one request to several targets, whose group
 * opens in the compare view's cells): main's plan of the dialog's input, asked again whenever
 * the input changes (an answer to an older input is dropped), and one run at a time.
 */
import { useEffect, useState } from 'react';

/** Main's plan of `input`, or null while it is being asked (or there is no input). */
export function useLivePlan<Input, Answer>(
  input: Input | null,
  ask: (input: Input) => Promise<Answer>,
): Answer | null {
  const [answer, setAnswer] = useState<Answer | null>(null);
  useEffect(() => {
    let current = true;
    setAnswer(null);
    if (input !== null) void ask(input).then((got) => current && setAnswer(got));
    return () => {
      current = false;
    };
  }, [input, ask]);
  return answer;
}

/**
 * One run at a time: a second click while main is sending would start a second group. The click
 * disables the button before the next event (React renders a click's state at once). `run`
 * answers main's refusal in a sentence, or null.
 */
export function useOneRun<Input>(run: (input: Input) => Promise<string | null>) {
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const start = async (input: Input) => {
    if (sending) return;
    setSending(true);
    try {
      setRefused(await run(input));
    } finally {
      setSending(false);
    }
  };
  return { sending, refused, setRefused, start };
}
