/** What the window shows isolated (`<bdi>`), for the tests of names from files and services. */

/** The text of every `<bdi>` under `root`. */
export function isolated(root: Element): string[] {
  return [...root.querySelectorAll('bdi')].map((element) => element.textContent ?? '');
}

/** The sentence around the `<bdi>` holding `name`, with each isolated name shown as ⟨name⟩. */
export function sentenceAround(root: Element, name: string): string {
  const bdi = [...root.querySelectorAll('bdi')].find((element) => element.textContent === name);
  if (!bdi?.parentElement) throw new Error(`${name} is not isolated`);
  const copy = bdi.parentElement.cloneNode(true) as Element;
  for (const inner of copy.querySelectorAll('bdi')) inner.textContent = `⟨${inner.textContent}⟩`;
  return copy.textContent ?? '';
}
