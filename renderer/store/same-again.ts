/**
 * What the page holds when main lists the same again, else what it listed. A library or a list of
 * settings is read again at every window focus and by each screen that shows it when first drawn
 * (the gallery's template filter, drawn in the background after start; Settings' prices, caps and
 * workflows), and a new copy of the same data redrew every part that reads it: the compose form's
 * template field and panel, its count, model and Generate, and its cost estimate (asked again of
 * main for the new prices). Main's answers are plain data checked by the contract's schema, so
 * their JSON says whether they are the same.
 */
export function sameAgain<T>(held: T, listed: T): T {
  return held === listed || JSON.stringify(held) === JSON.stringify(listed) ? held : listed;
}
