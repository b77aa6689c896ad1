// The omission marker: a template filled with what was cut. Placeholders are the schema's list;
// an unknown one is a spec error, caught when the spec is loaded rather than printed verbatim.

export const MARKER_PLACEHOLDERS = ['omittedLines', 'omittedBytes', 'omittedTokens', 'originalLines', 'originalBytes', 'sha256'] as const;
export type MarkerValues = Record<(typeof MARKER_PLACEHOLDERS)[number], string | number>;

export const DEFAULT_MARKER = '[… {omittedLines} of {originalLines} lines, {omittedBytes} bytes omitted …]';
/** Used when the spec's marker does not fit the budget; after it, no marker at all. */
export const SHORT_MARKER = '[…]';

const PLACEHOLDER = /\{(\w+)\}/g;

export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(MARKER_PLACEHOLDERS);
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !known.has(name));
}

export function renderMarker(template: string, values: MarkerValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in values ? String(values[name as keyof MarkerValues]) : whole));
}
