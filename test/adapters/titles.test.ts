// commandTitle finds the first line by index and splits into code points only when needed; it
// must give what the plain definition gives: the first line (split on \r?\n), trimmed, cut to
// `max` code points with an ellipsis. displayPath slices a normalized path under the cwd instead
// of calling `relative`; it must give what `relative` gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAbsolute, relative } from 'node:path/posix';
import { commandTitle, displayPath } from '../../src/present/titles.js';

function reference(command: string, max = 80): string {
  const first = command.trim().split(/\r?\n/, 1)[0] ?? '';
  const oneLine = first.trim();
  const cut = [...oneLine];
  return cut.length > max ? `${cut.slice(0, max - 1).join('')}…` : oneLine;
}

const piece = fc.oneof(fc.constantFrom('\n', '\r\n', '\r', ' ', '\t', '😀', 'é', 'ls -la', '&&', '\u00a0'), fc.string({ maxLength: 30 }));
const command = fc.array(piece, { maxLength: 20 }).map((xs) => xs.join(''));

describe('commandTitle', () => {
  it('equals the plain definition on commands with mixed line ends, blanks and astral characters (10k cases)', () => {
    fc.assert(fc.property(command, fc.integer({ min: 1, max: 90 }), (c, max) => { expect(commandTitle(c, max)).toBe(reference(c, max)); }), { numRuns: 10_000 });
  });

  it('cuts by code point, not UTF-16 unit', () => {
    expect(commandTitle('😀'.repeat(81))).toBe(`${'😀'.repeat(79)}…`);
    expect(commandTitle('😀'.repeat(80))).toBe('😀'.repeat(80));
    expect(commandTitle('  echo hi\r\necho there')).toBe('echo hi');
  });
});

function displayReference(path: string, cwd?: string): string {
  if (!cwd || !isAbsolute(path) || !isAbsolute(cwd)) return path;
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel === '..' || rel.startsWith('../') ? path : rel;
}

// Segments that normalize away or look like they might (`...`, `.x`), so both paths of displayPath run.
const segment = fc.constantFrom('', '.', '..', '...', '.x', 'a', 'b', 'src', 'a b', 'é');
const absPath = fc.array(segment, { maxLength: 6 }).chain((segs) => fc.constantFrom('', '/').map((tail) => `/${segs.join('/')}${tail}`));

describe('displayPath', () => {
  it('equals path.relative under any cwd and path, normalized or not (20k cases)', () => {
    const underCwd = fc.tuple(absPath, fc.array(segment, { maxLength: 4 })).map(([cwd, rest]) => [cwd, `${cwd}/${rest.join('/')}`] as const);
    const any = fc.tuple(absPath, fc.oneof(absPath, fc.constantFrom('rel/x', '', './a')));
    fc.assert(fc.property(fc.oneof(underCwd, any), ([cwd, path]) => { expect(displayPath(path, cwd)).toBe(displayReference(path, cwd)); }), { numRuns: 20_000 });
  });

  it('shows a path under the cwd relative, and others as given', () => {
    expect(displayPath('/repo/src/a.ts', '/repo')).toBe('src/a.ts');
    expect(displayPath('/repo', '/repo')).toBe('.');
    expect(displayPath('/repo/./src/../b.ts', '/repo')).toBe('b.ts');
    expect(displayPath('/repo/src/', '/repo')).toBe('src');
    expect(displayPath('/other/a.ts', '/repo')).toBe('/other/a.ts');
    expect(displayPath('/repository/a.ts', '/repo')).toBe('/repository/a.ts');
    expect(displayPath('/x/a.ts', '/')).toBe('x/a.ts');
    // Names that start with dots are inside the cwd (an earlier version showed them absolute).
    expect(displayPath('/repo/..env', '/repo')).toBe('..env');
    expect(displayPath('/repo/.../a', '/repo')).toBe('.../a');
    expect(displayPath('/a', '/repo')).toBe('/a');
  });
});
