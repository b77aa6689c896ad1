// Issue 30, honest misfits: `--from X` on an input of another format says so, for every pair of
// formats. An adapter may take a foreign line for one of its own that carries no tool data (a
// Codex line is a JSON object, as OpenCode's are), so the file's verdict does not rest on the
// adapter alone: when the forced format found nothing, the sniffers say what the input looks like.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADAPTER_IDS } from '../../src/adapters/registry.js';
import type { Diagnostic } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-misfits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (p: string) => join(REPO_ROOT, 'fixtures', p);
const CLAUDE = fixture('claude/streamjson-all-tools/streamjson-all-tools.jsonl');

// One recording of every form, by the format it is; ACP and events recordings are made from Claude's.
const acp = join(dir, 'frames.jsonl');
const events = join(dir, 'events.jsonl');
writeFileSync(acp, (await cli(['normalize', '--to', 'acp', CLAUDE])).stdout);
writeFileSync(events, (await cli(['normalize', '--to', 'events', CLAUDE])).stdout);

const RECORDINGS: { format: string; file: string }[] = [
  { format: 'claude', file: CLAUDE },
  { format: 'claude', file: fixture('claude/transcript-subagents') },
  { format: 'codex', file: fixture('codex/exec-tools-plan/exec-tools-plan.jsonl') },
  { format: 'codex', file: fixture('codex/appserver-tools/appserver-tools.jsonl') },
  { format: 'codex', file: fixture('codex/rollout-0163-probe/rollout-0163-probe.jsonl') },
  { format: 'opencode', file: fixture('opencode/run1/run1-run.jsonl') },
  { format: 'opencode', file: fixture('opencode/run1/run1-events.sse') },
  { format: 'opencode', file: fixture('opencode/run1/run1-export/export.json') },
  { format: 'acp', file: acp },
  { format: 'events', file: events },
];

const diagnostics = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Diagnostic);

describe('--from with an input of another format', () => {
  const cases = RECORDINGS.flatMap((r) => ADAPTER_IDS.filter((id) => id !== r.format).map((from) => ({ ...r, from, name: basename(r.file) })));
  it.each(cases)('--from $from on a $format recording ($name) names the file and what it looks like', async ({ format, file, from }) => {
    const r = await cli(['normalize', '--from', from, '--to', 'events', '--quiet', '--summary', file]);
    const own = await cli(['normalize', '--from', format, '--to', 'events', '--summary', file]);
    // The control: read as what it is, the recording gives events and no such diagnostic.
    expect(own.lines.length).toBeGreaterThan(0);
    expect(diagnostics(own.stderr).filter((d) => d.code === 'unrecognized_input')).toEqual([]);
    // Misread: nothing comes out, and --quiet still leaves the count in the summary…
    expect(r.lines).toEqual([]);
    const summary = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { diagnostics: number };
    expect(summary.diagnostics).toBeGreaterThan(0);
    // …and without --quiet the verdict names the file and the format it looks like.
    const loud = await cli(['normalize', '--from', from, '--to', 'events', file]);
    const verdicts = diagnostics(loud.stderr).filter((d) => d.code === 'unrecognized_input');
    expect(verdicts.length, loud.stderr.slice(0, 2000)).toBeGreaterThan(0);
    for (const v of verdicts) {
      expect(v.message).toMatch(new RegExp(`^no line of .+ was recognized as ${from} input \\(\\d+ not recognized, \\d+ reported [^)]*\\): it looks like ${format} input \\(try --from ${format}, or --from auto\\)$`));
      expect(v.source?.file).toMatch(/./);
    }
  });

  it('a file no sniffer knows gets the plain verdict (no guess)', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'just some notes\nnot a recording\n');
    const r = await cli(['normalize', '--from', 'codex', text]);
    const verdicts = diagnostics(r.stderr).filter((d) => d.code === 'unrecognized_input');
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]!.message).toContain(`no line of ${text} was recognized as codex input`);
    expect(verdicts[0]!.message).not.toContain('looks like');
  });
});
