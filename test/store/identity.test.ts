// Issue 30, same recording, same stream: a recording is known by its content, not by the path it is
// read by. The same bytes again, by another spelling of the path, a copy or stdin, append nothing
// and exit 0; a longer copy appends only its tail; another recording of the session is a conflict
// whose message shows what differs. SQLite, and PostgreSQL when reachable.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { recordingBody } from '../../src/store/conflict.js';
import { openStore } from '../../src/store/open.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { dropTestSchemas, freshPostgresUrl, postgresAvailable } from './pg.js';

const PG = await postgresAvailable();
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-identity-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropTestSchemas();
});

const DEMO = join(REPO_ROOT, 'fixtures/claude/streamjson-all-tools/streamjson-all-tools.jsonl');
const TEXT = readFileSync(DEMO, 'utf8');
const LINES = TEXT.split('\n').filter((l) => l.trim());
mkdirSync(join(dir, 'rec'));
writeFileSync(join(dir, 'rec/a.jsonl'), TEXT);
copyFileSync(join(dir, 'rec/a.jsonl'), join(dir, 'copy.jsonl'));
writeFileSync(join(dir, 'short.jsonl'), `${LINES.slice(0, 25).join('\n')}\n`);
// Another recording of the same session: one tool result says something else.
const changed = LINES.map((l) => l.replace('"content":"hello\\nred.png\\nsample.txt"', '"content":"something else"'));
if (changed.join('\n') === LINES.join('\n')) throw new Error('the fixture no longer has the tool result this test changes');
writeFileSync(join(dir, 'other.jsonl'), `${changed.join('\n')}\n`);

let n = 0;
const targets = [
  { name: 'sqlite', available: true, url: () => `sqlite:${join(dir, `id-${n++}.db`)}` },
  { name: 'postgres', available: PG, url: freshPostgresUrl },
];

async function storedEvents(url: string): Promise<ToolEvent[]> {
  const store = await openStore(url, { readOnly: true });
  try {
    const out: ToolEvent[] = [];
    for (const s of await store.sessions()) for await (const e of store.read(s.sessionId)) out.push(e);
    return out;
  } finally {
    await store.close();
  }
}

describe.each(targets)('normalize --store on a $name store', (target) => {
  it.skipIf(!target.available)('the same recording by three spellings, a copy, stdin (named and implied) appends 0 events and exits 0', async () => {
    const url = target.url();
    const first = await cli(['normalize', '--store', url, 'rec/a.jsonl'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const events = await storedEvents(url);
    expect(events.length).toBeGreaterThan(30);
    const again = [
      { argv: ['./rec/a.jsonl'] },
      { argv: [join(dir, 'rec/a.jsonl')] },
      { argv: ['rec/../rec/a.jsonl'] },
      { argv: ['copy.jsonl'] },
      { argv: ['-'], stdin: TEXT },
      { argv: [], stdin: TEXT },
    ];
    for (const run of again) {
      const r = await cli(['normalize', '--store', url, ...run.argv], { cwd: dir, ...(run.stdin !== undefined ? { stdin: run.stdin } : {}) });
      expect(r.code, `${run.argv.join(' ') || 'stdin'}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
      // The parts are printed as on the first run.
      expect(r.stdout).toBe(first.stdout);
      expect((await storedEvents(url)).length, run.argv.join(' ') || 'stdin').toBe(events.length);
    }
    // What is stored is the first run's, path and all.
    expect(await storedEvents(url)).toEqual(events);
  });

  it.skipIf(!target.available)('a grown copy appends exactly the new events', async () => {
    const url = target.url();
    expect((await cli(['normalize', '--store', url, 'short.jsonl'], { cwd: dir })).code).toBe(0);
    const short = await storedEvents(url);
    expect(short.length).toBeGreaterThan(0);
    const grown = await cli(['normalize', '--store', url, 'rec/a.jsonl'], { cwd: dir });
    expect(grown.code, grown.stderr).toBe(0);
    const all = await storedEvents(url);
    // The same events as the whole recording stored at once, the short one's first.
    const whole = target.url();
    expect((await cli(['normalize', '--store', whole, 'rec/a.jsonl'], { cwd: dir })).code).toBe(0);
    const reference = await storedEvents(whole);
    expect(all.map(recordingBody)).toEqual(reference.map(recordingBody));
    expect(all.slice(0, short.length)).toEqual(short);
    expect(all.length).toBeGreaterThan(short.length);
  });

  it.skipIf(!target.available)('another recording of the same session is a conflict that shows what differs', async () => {
    const url = target.url();
    expect((await cli(['normalize', '--store', url, 'rec/a.jsonl'], { cwd: dir })).code).toBe(0);
    const before = await storedEvents(url);
    const r = await cli(['normalize', '--store', url, 'other.jsonl'], { cwd: dir });
    expect(r.code).toBe(1);
    const message = r.stderr.split('\n').find((l) => l.includes('conflict'))!;
    expect(message).toMatch(/already holds a different event at seq \d+ /);
    // The two sides differ in what is printed: the field, the stored value and the new one.
    expect(message).toContain('output.text is "hello\\nred.png\\nsample.txt" in the store and "something else" in this input');
    expect(await storedEvents(url)).toEqual(before);
  });
});
