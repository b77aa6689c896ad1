// A reader that goes away (`toolnorm … | head -1`) is not an error: every command that prints on
// stdout stops quietly, prints nothing on stderr, and exits 141 (128 + SIGPIPE, what a shell and
// `set -o pipefail` expect from `yes | head -1`). The real CLI runs under bash, through real pipes.
//
// The output must outlast the pipe's buffer (64 KiB) for `head -1` to close it while the command
// still writes; commands whose output is small (sessions, replay, exec) get a reader that has
// already closed the pipe (`| true`) instead, so the first write fails either way.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const TMP = mkdtempSync(join(tmpdir(), 'toolnorm-pipes-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const TOOLNORM = `'${process.execPath}' --import tsx src/cli/main.ts`;
const BIG = join(TMP, 'big.jsonl');
const STORE = `sqlite:${join(TMP, 'events.db')}`;
const SOURCE = 'fixtures/claude/streamjson-all-tools/streamjson-all-tools.jsonl';
const SOURCE_SESSION = '236a8a83-1c69-47e3-af2a-419b8d41680e';
const session = (i: number) => `${SOURCE_SESSION.slice(0, -4)}${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  // 40 copies of a recorded Claude session, each with its own session and tool ids: 1.4 MB in,
  // hundreds of KB out of every command below.
  const lines = readFileSync(join(REPO_ROOT, SOURCE), 'utf8').split('\n').filter((l) => l.trim());
  const copies = Array.from({ length: 40 }, (_, i) => lines.map((l) => l.replaceAll(SOURCE_SESSION, session(i)).replaceAll('toolu_', `tl${i}_`)));
  writeFileSync(BIG, `${copies.flat().join('\n')}\n`);
  const stored = await cli(['normalize', '--store', STORE, BIG]);
  expect(stored.code).toBe(0);
}, 120_000);

/** `toolnorm ARGS | READER`, with toolnorm's own exit status and stderr. */
function piped(args: string, reader: string): { code: number; stderr: string; read: string } {
  const errFile = join(TMP, `err-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync('bash', ['-c', `${TOOLNORM} ${args} 2>'${errFile}' | ${reader}; echo "toolnorm exit \${PIPESTATUS[0]}" >&2`], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  const status = /toolnorm exit (\d+)/.exec(r.stderr);
  return { code: Number(status?.[1]), stderr: readFileSync(errFile, 'utf8'), read: r.stdout };
}

const CASES: [name: string, args: string, reader: 'head -1' | 'true', firstLine: RegExp][] = [
  ['normalize', `normalize ${BIG}`, 'head -1', /^\{"id":"tl0_mock001_0"/],
  ['normalize --to acp', `normalize --to acp ${BIG}`, 'head -1', /^\{"jsonrpc":"2.0","method":"session\/update"/],
  ['compress', `compress --max-bytes 100000000 ${BIG}`, 'head -1', /^\{"type":"system"/],
  ['view -o -', `view -o - ${BIG}`, 'head -1', /^<!doctype html>/i],
  // --quiet: without it, record notes on stderr where the raw recording goes.
  ['record --quiet', `record --quiet --raw '${join(TMP, 'raw.jsonl')}' -- cat ${BIG}`, 'head -1', /^\{"id":"tl0_mock001_0"/],
  ['replay', `replay --store ${STORE} --session ${session(0)}`, 'true', /^$/],
  ['replay --to events', `replay --store ${STORE} --session ${session(0)} --to events`, 'true', /^$/],
  ['sessions', `sessions --store ${STORE}`, 'true', /^$/],
  ['exec', `exec --cwd '${TMP}' file_read '{"path":"big.jsonl"}'`, 'true', /^$/],
];

describe('a closed reader ends each output command quietly with 141', () => {
  it.each(CASES)('%s', (_name, args, reader, firstLine) => {
    const r = piped(args, reader);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 141, stderr: '' });
    expect(r.read).toMatch(firstLine);
  }, 120_000);

  it('control: with a reader that reads everything, the same commands exit 0', () => {
    for (const [name, args] of CASES.filter(([n]) => ['view -o -', 'sessions'].includes(n))) {
      const r = piped(args, 'wc -c');
      expect([name, r.code, r.stderr]).toEqual([name, 0, '']);
      expect(Number(r.read.trim())).toBeGreaterThan(1000);
    }
  }, 120_000);
});
