/**
 * Someone else's words inside one of Pictor's sentences (a service's own reason): quoted, and
 * isolated from the sentence's direction (`dir="auto"`: English inside Arabic keeps its order),
 * so a row that cuts them cuts them at their own end, whichever way they run.
 */
export function Quoted({ text, className }: { text: string; className?: string }) {
  return (
    <q className={className ? `quoted ${className}` : 'quoted'} dir="auto">
      {text}
    </q>
  );
}
