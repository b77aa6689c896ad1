// `normalize DIR --jobs N` (src/cli/bulk.ts): the same bytes on stdout and stderr, the same summary,
// exit code and store contents for every N, with real worker threads and a real SQLite store.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../store/raw-sqlite.js';
import { bulkUnits } from '../../src/cli/bulk.js';
import type { Input } from '../../src/cli/inputs.js';
import { cli } from '../helpers/cli.js';

const CORPUS = join(__dirname, '../../../shared/corpus');
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A folder of recordings of all three providers, a Claude session with its subagent folder beside
// it, and a file that is no recording (skipped with a warning in every run).
const folder = join(dir, 'sessions');
mkdirSync(join(folder, 'nested'), { recursive: true });
const picked: string[] = [];
for (const provider of ['claude', 'codex', 'opencode']) {
  for (const sub of ['captured', 'public']) {
    const from = join(CORPUS, provider, sub);
    for (const f of readdirSync(from).filter((n) => n.endsWith('.jsonl')).sort()) {
      copyFileSync(join(from, f), join(folder, `${provider}-${sub}-${f}`));
      picked.push(`${provider}-${sub}-${f}`);
    }
  }
}
copyFileSync(join(CORPUS, 'claude/captured/streamjson-2.1.332-all-tools.jsonl'), join(folder, 'nested/parent.jsonl'));
mkdirSync(join(folder, 'nested/parent/subagents'), { recursive: true });
copyFileSync(join(CORPUS, 'claude/captured/transcript-2.1.332-subagent-agent-a9eb076ac095ef555.filtered.jsonl'), join(folder, 'nested/parent/subagents/agent-a9eb076ac095ef555.jsonl'));
copyFileSync(join(CORPUS, 'claude/captured/transcript-2.1.332-subagent-agent-a9eb076ac095ef555.meta.json'), join(folder, 'nested/parent/subagents/agent-a9eb076ac095ef555.meta.json'));
writeFileSync(join(folder, 'README.txt'), 'not a recording\n');

const run = (jobs: number, ...args: string[]) => cli(['normalize', '--summary', '--jobs', String(jobs), ...args, folder], { cwd: dir });

function storeDump(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return {
      streams: db.prepare('SELECT id, session_id, head, first_at, last_at FROM streams ORDER BY id').all(),
      events: db.prepare('SELECT s.session_id, e.seq, e.type, e.part_id, e.at, e.body FROM events e JOIN streams s ON s.id = e.stream ORDER BY s.id, e.seq').all(),
    };
  } finally {
    db.close();
  }
}

describe('normalize DIR --jobs N', () => {
  it('the units: a recording with the folder named after it and its same-stem files; everything else alone, in input order', () => {
    const input = (name: string): Input => ({ name, size: 1, inDirectory: true, open: () => { throw new Error('not read'); } });
    const units = bulkUnits(['d/a.jsonl', 'd/b.jsonl', 'd/s-2.1.3.jsonl', 'd/a/subagents/agent-x.jsonl', 'd/a/subagents/agent-x.meta.json', 'd/b2.jsonl', 'd/s-2.1.3.meta.json'].map(input), '/')!;
    expect(units.map((u) => u.map((f) => f.name))).toEqual([
      ['d/a.jsonl', 'd/a/subagents/agent-x.jsonl', 'd/a/subagents/agent-x.meta.json'],
      ['d/b.jsonl'],
      ['d/s-2.1.3.jsonl', 'd/s-2.1.3.meta.json'],
      ['d/b2.jsonl'],
    ]);
    // stdin, or a single unit, is not cut at all: the one-stream path runs.
    expect(bulkUnits([input('d/a.jsonl'), { name: '-', live: true, open: () => { throw new Error('not read'); } }], '/')).toBeUndefined();
    expect(bulkUnits([input('d/a.jsonl'), input('d/a/x.jsonl')], '/')).toBeUndefined();
  });

  for (const to of ['parts', 'acp']) {
    it(`--to ${to}: --jobs 2 and 3 print the bytes --jobs 1 prints, on stdout and stderr, with the same summary and exit code`, async () => {
      const one = await run(1, '--to', to);
      expect(picked.length).toBeGreaterThan(10);
      expect(one.stdout.split('\n').length).toBeGreaterThan(200);
      // The README is skipped with a warning in every run: diagnostics are part of what must match.
      expect(one.stderr).toContain('README.txt was skipped');
      const summary = JSON.parse(one.stderr.trim().split('\n').at(-1)!) as { inputLines: number; eventLines: number; noToolDataLines: number; diagnosticLines: number };
      expect(summary.inputLines).toBe(summary.eventLines + summary.noToolDataLines + summary.diagnosticLines);
      for (const jobs of [2, 3]) {
        const r = await run(jobs, '--to', to);
        expect(r.code).toBe(one.code);
        expect(r.stderr).toBe(one.stderr);
        expect(r.stdout).toBe(one.stdout);
      }
    }, 240_000);
  }

  it('the output is each unit normalized alone, in input order (not the order the threads finish)', async () => {
    const all = await run(2);
    const alone: string[] = [];
    for (const f of [...picked].sort((a, b) => a.localeCompare(b))) alone.push((await cli(['normalize', join('sessions', f)], { cwd: dir })).stdout);
    const nested = await cli(['normalize', 'sessions/nested/parent.jsonl', 'sessions/nested/parent'], { cwd: dir });
    // The folder lists its top-level files first (README.txt prints nothing), then nested/.
    expect(all.stdout).toBe(alone.join('') + nested.stdout);
  }, 240_000);

  it('--store: the same store contents, stream creation order included, for every job count', async () => {
    const dumps = [];
    for (const jobs of [1, 2, 3]) {
      const path = join(dir, `store-${jobs}.db`);
      const r = await run(jobs, '--store', `sqlite:${path}`, '--to', 'events');
      expect(r.stderr).not.toContain('cannot open');
      dumps.push(storeDump(path));
      // Normalizing the same folder again appends nothing, in parallel too.
      const again = await run(jobs, '--store', `sqlite:${path}`, '--to', 'events');
      expect(again.stderr).toBe(r.stderr);
      expect(storeDump(path)).toEqual(dumps.at(-1));
    }
    expect((dumps[0] as { events: unknown[] }).events.length).toBeGreaterThan(300);
    expect(dumps[1]).toEqual(dumps[0]);
    expect(dumps[2]).toEqual(dumps[0]);
  }, 240_000);

  it('--jobs must be a positive whole number', async () => {
    for (const bad of ['0', '-1', '1.5', 'x']) {
      const r = await cli(['normalize', `--jobs=${bad}`, folder], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--jobs must be a whole number');
    }
  });
});
