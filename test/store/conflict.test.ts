// How the store sink tells the same recording from another one: the events without `source.file`
// (the path it was read by) and their seq; and, when they differ, the first place they do.
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { firstDifference, recordingBody, shown } from '../../src/store/conflict.js';

const base = { type: 'tool.started', sessionId: 's', partId: 'p1', name: 'Bash', kind: 'bash', title: 'Run ls', input: { command: 'ls', args: ['-l'] }, source: { provider: 'claude', line: 3, offset: 120 } } as unknown as ToolEvent;
const withFile = (file: string | undefined, e: ToolEvent = base) => ({ ...e, source: { ...e.source, ...(file ? { file } : {}) } }) as ToolEvent;

describe('recordingBody', () => {
  it('is the same for every path spelling, stdin (no file) and a stored seq', () => {
    const bodies = new Set([withFile('a.jsonl'), withFile('./a.jsonl'), withFile('/tmp/copy.jsonl'), withFile(undefined), { ...withFile('a.jsonl'), seq: 7 } as ToolEvent].map(recordingBody));
    expect(bodies.size).toBe(1);
  });

  it('differs when anything of the recording differs, the line it came from included', () => {
    expect(recordingBody(withFile('a', { ...base, title: 'Run ls -a' } as ToolEvent))).not.toBe(recordingBody(withFile('a')));
    expect(recordingBody(withFile('a', { ...base, source: { ...base.source, line: 4 } } as ToolEvent))).not.toBe(recordingBody(withFile('a')));
  });
});

describe('firstDifference', () => {
  it('names the path and both values, inside objects and arrays, and absent fields', () => {
    expect(firstDifference(withFile('a'), withFile('b'))).toBeUndefined();
    const args = { ...base, input: { command: 'ls', args: ['-a'] } } as unknown as ToolEvent;
    expect(firstDifference(base, args)).toEqual({ path: 'input.args[0]', stored: '-l', incoming: '-a' });
    const extra = { ...base, metadata: { cwd: '/w' } } as unknown as ToolEvent;
    expect(firstDifference(base, extra)).toEqual({ path: 'metadata', stored: undefined, incoming: { cwd: '/w' } });
    expect(shown(undefined)).toBe('(absent)');
    expect(shown('x'.repeat(200))).toHaveLength(80);
  });
});
