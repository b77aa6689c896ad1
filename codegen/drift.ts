// In-memory drift comparison: what `npm run codegen` would write against what is on disk.
export interface Drift { path: string; kind: 'changed' | 'missing' | 'stale'; diff?: string }

export function compareOutputs(expected: Map<string, string>, actual: Map<string, string | undefined>, staleOnDisk: string[]): Drift[] {
  const drift: Drift[] = [];
  for (const [path, want] of expected) {
    const have = actual.get(path);
    if (have === undefined) drift.push({ path, kind: 'missing' });
    else if (normalize(have) !== normalize(want)) drift.push({ path, kind: 'changed', diff: hunk(normalize(have), normalize(want)) });
  }
  for (const path of staleOnDisk) drift.push({ path, kind: 'stale' });
  return drift;
}

const normalize = (s: string) => s.replace(/\r\n/g, '\n');

/** One unified-style hunk spanning the first to the last differing line, capped for readability. */
export function hunk(have: string, want: string, context = 2, cap = 40): string {
  const a = have.split('\n');
  const b = want.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) { endA--; endB--; }
  const from = Math.max(0, start - context);
  const lines = [`@@ -${from + 1},${endA - from + 1 + context} +${from + 1},${endB - from + 1 + context} @@`];
  for (let i = from; i < start; i++) lines.push(` ${a[i]}`);
  for (let i = start; i <= endA; i++) lines.push(`-${a[i]}`);
  for (let i = start; i <= endB; i++) lines.push(`+${b[i]}`);
  for (let i = endA + 1; i < Math.min(a.length, endA + 1 + context); i++) lines.push(` ${a[i]}`);
  const clipped = lines.length > cap ? [...lines.slice(0, cap), `… ${lines.length - cap} more diff lines`] : lines;
  return clipped.map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l)).join('\n');
}
