// commandTitle finds the first line by index and splits into code points only when needed; it
// must give what the plain definition gives: the first line (split on \r?\n), trimmed, cut to
// `max` code points with an ellipsis.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandTitle } from '../../src/adapters/shared/titles.js';

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
