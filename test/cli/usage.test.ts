// How the command line talks to a person: one-line usage errors, `help CMD`, `-V`, a piped stdin
// read by every command that takes input, a demo that says it is one, and --quiet. Where a pipe or
// a terminal matters the real CLI runs in a child process: stdin a real pipe from bash, or a real
// pseudo-terminal from util-linux `script`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { VERSION } from '../../src/cli/run.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const TMP = mkdtempSync(join(tmpdir(), 'toolnorm-usage-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const DEMO = 'fixtures/demo/claude-streamjson-all-tools.jsonl';
const TOOLNORM = `'${process.execPath}' --import tsx src/cli/main.ts`;

/** Runs a bash command line in the repository (so `--import tsx` resolves); generous timeout for a loaded machine. */
function sh(command: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', command], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A bad option for each command, with what else it needs to get as far as parsing its options. */
const BAD_OPTION: Record<string, string[]> = {
  normalize: ['--bogus', DEMO],
  record: ['--bogus', '--', 'true'],
  exec: ['--bogus', 'file_read', '{}'],
  compress: ['--bogus', DEMO],
  replay: ['--bogus', '--session', 's'],
  sessions: ['--bogus'],
  view: ['--bogus', DEMO],
};

describe('usage errors', () => {
  it('are one line naming the fault and where the usage is, exit 2, for every command', async () => {
    // Every command is covered, one added later too (with a bare --bogus).
    for (const { name } of COMMANDS) {
      const args = BAD_OPTION[name] ?? ['--bogus'];
      const r = await cli([name, ...args], { cwd: TMP });
      expect([name, r.code, r.stdout, r.stderr]).toEqual([name, 2, '', `toolnorm ${name}: Unknown option '--bogus' (see \`toolnorm ${name} --help\`)\n`]);
    }
  });

  it('a fault found after parsing is one line too (the usage text is not repeated)', async () => {
    const r = await cli(['normalize', '--to', 'xml', DEMO]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/^toolnorm normalize: unknown --to "xml"; expected .* \(see `toolnorm normalize --help`\)\n$/)]);
    const missing = await cli(['normalize', '--to']);
    expect([missing.code, missing.stderr]).toEqual([2, "toolnorm normalize: Option '--to <value>' argument missing (see `toolnorm normalize --help`)\n"]);
  });

  it('an unknown command is one line pointing at the top help', async () => {
    const r = await cli(['frobnicate']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'toolnorm: unknown command "frobnicate" (see `toolnorm --help`)\n']);
  });
});

describe('help and version', () => {
  it('`help CMD` prints that command\'s usage, like `CMD --help`', async () => {
    for (const { name } of COMMANDS) {
      const viaHelp = await cli(['help', name]);
      const viaFlag = await cli([name, '--help']);
      expect([name, viaHelp.code, viaHelp.stdout]).toEqual([name, 0, viaFlag.stdout]);
      expect(viaHelp.stdout).toContain(`toolnorm ${name}`);
    }
    const unknown = await cli(['help', 'frobnicate']);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([2, '', expect.stringMatching(/^toolnorm: unknown command "frobnicate"; expected normalize, .* \(see `toolnorm --help`\)\n$/)]);
    expect((await cli(['help'])).stdout).toContain('Commands:');
  });

  it('-V, --version and -v print the version', async () => {
    for (const flag of ['-V', '--version', '-v']) expect(await cli([flag])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(VERSION).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
  });

  it('compress --help states its default budget in words (no "10,000 bytes4 tokens")', async () => {
    const r = await cli(['compress', '--help']);
    expect(r.stdout).not.toMatch(/bytes4 tokens/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('head_tail at 10,000 tokens, counted as ceil(bytes/4) (the bytes4 estimator)');
  });
});

describe('a piped stdin is the input when no FILE is named', () => {
  it('compress reads it', () => {
    const r = sh(`printf 'alpha\\nbeta\\n' | ${TOOLNORM} compress`);
    expect([r.code, r.stdout]).toEqual([0, 'alpha\nbeta\n']);
    expect(JSON.parse(r.stderr)).toMatchObject({ compressed: false, originalLines: 2 });
  });

  it('view reads it (-o - prints the page)', () => {
    const r = sh(`cat ${DEMO} | ${TOOLNORM} view -o -`);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^<!doctype html>/i);
    expect(r.stdout).toContain('Print greeting and list files');
  });

  it('normalize reads it', () => {
    const r = sh(`cat ${DEMO} | ${TOOLNORM} normalize`);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain('"title":"Listing files"');
    expect(r.stderr).not.toContain('demo');
  });

  it('exec reads the tool\'s JSON input from it', () => {
    const r = sh(`printf '{"path":"package.json","limit":1}' | ${TOOLNORM} exec file_read`);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'file_read', state: 'complete', output: { text: expect.stringContaining('{') } });
  });

  it('control: with /dev/null on stdin (nothing piped) compress and view still ask for a FILE, exec for its JSON', () => {
    for (const command of ['compress', 'view']) {
      const r = sh(`${TOOLNORM} ${command} < /dev/null`);
      expect([command, r.code, r.stderr]).toEqual([command, 2, expect.stringMatching(new RegExp(`^toolnorm ${command}: missing FILE.*\\(see \`toolnorm ${command} --help\`\\)\\n$`))]);
    }
    const exec = sh(`${TOOLNORM} exec file_read < /dev/null`);
    expect([exec.code, exec.stderr]).toEqual([2, expect.stringMatching(/^toolnorm exec: missing the JSON input of file_read.*\(see `toolnorm exec --help`\)\n$/)]);
  });
});

// `script` gives the child a real terminal; its stdout goes to a file, so the terminal shows stderr only.
const inTerminal = (args: string) => {
  const out = join(TMP, `out-${Math.random().toString(36).slice(2)}.ndjson`);
  const r = spawnSync('script', ['-qec', `${TOOLNORM} ${args} > '${out}'`, '/dev/null'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, terminal: r.stdout, stdout: readFileSync(out, 'utf8') };
};

describe('demo mode (no FILE, stdin a terminal)', () => {
  it('says on stderr, in one line, that the output is the shipped demo session', () => {
    const r = inTerminal('normalize');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"title":"Listing files"');
    const lines = r.terminal.split(/\r?\n/).filter(Boolean);
    expect(lines).toEqual([expect.stringMatching(/^toolnorm normalize: demo: no FILE and stdin is a terminal, so this is a recorded Claude Code session shipped with toolnorm/)]);
  });

  it('--quiet leaves the note out, and nothing else is printed', () => {
    const r = inTerminal('normalize --quiet');
    expect([r.code, r.terminal]).toEqual([0, '']);
    expect(r.stdout).toContain('"title":"Listing files"');
  });
});

describe('--quiet on a terminal', () => {
  it('draws no progress bar over a big input; the same run without it draws one (control)', () => {
    // Over the 8 MiB from which the bar is drawn: 9,000 events of 1 KB for one part.
    const big = join(TMP, 'big.ndjson');
    const event = { type: 'tool.started', sessionId: 's1', partId: 'x', at: 1000, source: { provider: 'executor' }, name: 'bash', kind: 'bash', title: 't', input: { command: 'y'.repeat(1000) } };
    writeFileSync(big, `${JSON.stringify(event)}\n`.repeat(9000));
    const loud = inTerminal(`normalize --from events '${big}'`);
    expect(loud.code).toBe(0);
    expect(loud.terminal).toMatch(/\[#+\s*\] 100%/);
    const quiet = inTerminal(`normalize --from events --quiet '${big}'`);
    expect([quiet.code, quiet.terminal]).toEqual([0, '']);
    expect(quiet.stdout).toBe(loud.stdout);
  }, 120_000);
});
