/**
 * Warnings as people read them (docs/part-models.md): a validator or glTF-Transform warning repeats
 * once per primitive, accessor or texture and buries the one that matters. Warnings of one kind
 * (the same words once numbers, JSON pointers and quoted names are set aside) become one line,
 * the first of them, counted: `... x12`. Order: first appearance.
 */

/** The kind of a warning: its words without the numbers, pointers and quoted names that vary per item. */
function kindOf(w: string): string {
  return w
    .replace(/\/[\w/]+/g, '/#')
    .replace(/"[^"]*"|'[^']*'/g, '"#"')
    .replace(/\d+(\.\d+)?/g, '#');
}

/** One line per kind of warning, with `xN` when it came N > 1 times. */
export function groupWarnings(warnings: readonly string[]): string[] {
  const groups = new Map<string, { first: string; count: number }>();
  for (const w of warnings) {
    const k = kindOf(w);
    const g = groups.get(k);
    if (g) g.count++;
    else groups.set(k, { first: w, count: 1 });
  }
  return [...groups.values()].map((g) => (g.count > 1 ? `${g.first} x${g.count}` : g.first));
}
