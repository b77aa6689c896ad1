// `toolnorm compress`, run in-process: text on stdout, one stats line on stderr, clear exits.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CLAUDE_BASH_SPEC, compressText } from '../../src/compress/index.js';
import { cli } from '../helpers/cli.js';
import { bytes, sha256 } from './reference.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-compress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEQ = Array.from({ length: 50_000 }, (_, i) => `${i + 1}`).join('\n') + '\n';
const seqFile = join(dir, 'seq.txt');
writeFileSync(seqFile, SEQ);

const statsOf = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
};

describe('toolnorm compress', () => {
  it('prints the compressed text and one stats line that matches the library', async () => {
    const r = await cli(['compress', '--max-lines', '5', '--marker', '[{omittedLines} lines cut]', seqFile]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\n2\n[49996 lines cut]\n49999\n50000\n');
    const stats = statsOf(r.stderr);
    const lib = compressText(SEQ, { id: 'cli', budget: { maxLines: 5 }, strategy: [{ type: 'head_tail', headRatio: 0.5 }], estimator: 'bytes4', marker: '[{omittedLines} lines cut]' });
    expect(stats).toEqual({ compressed: true, ...lib.stats, sha256: sha256(SEQ) });
    expect(stats.specId).toBe('cli');
  });

  it('reads stdin with -, and applies a default spec by id', async () => {
    const r = await cli(['compress', '--spec', 'claude-bash', '-'], { stdin: SEQ });
    expect(r.code).toBe(0);
    expect(bytes(r.stdout)).toBeLessThanOrEqual(30_000);
    expect(r.stdout).toBe(compressText(SEQ, CLAUDE_BASH_SPEC).text);
    expect(statsOf(r.stderr)).toMatchObject({ specId: 'claude-bash', strategy: 'head_tail', originalLines: 50_000 });
  });

  it('prints the original unchanged when it fits', async () => {
    const r = await cli(['compress', '-'], { stdin: 'small output\n' });
    expect(r.stdout).toBe('small output\n');
    expect(statsOf(r.stderr)).toMatchObject({ compressed: false, strategy: 'none', keptBytes: 13, omittedBytes: 0 });
  });

  it('--strategy and --head-ratio replace the spec\'s steps', async () => {
    const noisy = 'start\n' + '\x1b[33mwaiting\x1b[0m\n'.repeat(300) + Array.from({ length: 100 }, (_, i) => `row ${i}`).join('\n');
    const r = await cli(['compress', '--max-bytes', '120', '--strategy', 'ansi_strip+collapse_repeats+head_tail', '--head-ratio', '0.2', '--marker', '…', '-'], { stdin: noisy });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('start\nwaiting ×300\n')).toBe(true);
    expect(r.stdout.endsWith('row 99')).toBe(true);
    expect(bytes(r.stdout)).toBeLessThanOrEqual(120);
    expect(statsOf(r.stderr)).toMatchObject({ strategy: 'ansi_strip+collapse_repeats+head_tail', omittedLines: expect.any(Number) });
    const tailOnly = await cli(['compress', '--max-lines', '3', '--head-ratio', '0', seqFile]);
    expect(tailOnly.stdout.split('\n').slice(1)).toEqual(['49999', '50000', '']);
  });

  it('takes a spec from a JSON file, and rejects an invalid one with exit 2', async () => {
    const good = join(dir, 'spec.json');
    writeFileSync(good, JSON.stringify({ id: 'mine', budget: { maxBytes: 20 }, strategy: [{ type: 'head' }], marker: '…' }));
    const r = await cli(['compress', '--spec', good, seqFile]);
    expect(r.stdout).toBe('1\n2\n3\n4\n5\n6\n7\n8\n…');
    expect(statsOf(r.stderr)).toMatchObject({ specId: 'mine', strategy: 'head' });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ id: 'bad', budget: { maxBytes: 20 }, strategy: [{ type: 'head' }, { type: 'tail' }] }));
    const b = await cli(['compress', '--spec', bad, seqFile]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('invalid spec (');
    expect(b.stderr).toContain('has 2 cut steps');
    const missing = await cli(['compress', '--spec', join(dir, 'none.json'), seqFile]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('none.json: no such file');
  });

  it('counts exact tokens with --estimator exact', async () => {
    const r = await cli(['compress', '--max-tokens', '200', '--estimator', 'exact', seqFile]);
    expect(r.code).toBe(0);
    const stats = statsOf(r.stderr);
    expect(stats).toMatchObject({ estimator: 'exact', keptTokens: countTokens(r.stdout) });
    expect(stats.keptTokens).toBeLessThanOrEqual(200);
  });

  it('exits 2 on bad usage and 1 on unreadable input', async () => {
    for (const argv of [[seqFile, seqFile], ['--max-bytes', '0', seqFile], ['--max-lines', 'x', seqFile], ['--estimator', 'words', seqFile],
      ['--strategy', 'head', '--head-ratio', '0.5', seqFile], ['--head-ratio', '2', seqFile], ['--spec', 'nope', seqFile], ['--marker', '{bogus}', seqFile], ['--frob', seqFile]]) {
      const r = await cli(['compress', ...argv]);
      expect([argv, r.code]).toEqual([argv, 2]);
      expect(r.stderr).toMatch(/^toolnorm compress: .* \(see `toolnorm compress --help`\)\n$/);
    }
    const noInput = await cli(['compress'], { tty: true });
    expect([noInput.code, noInput.stderr]).toEqual([2, expect.stringContaining('missing FILE')]);
    const missing = await cli(['compress', join(dir, 'nope.txt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.txt: no such file or directory');
    mkdirSync(join(dir, 'sub'));
    const isDir = await cli(['compress', join(dir, 'sub')]);
    expect(isDir.code).toBe(1);
    expect(isDir.stderr).toContain('it is a directory');
  });

  it('--help prints the usage', async () => {
    const r = await cli(['compress', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--max-tokens N');
  });
});
