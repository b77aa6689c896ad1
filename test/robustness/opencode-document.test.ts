// The OpenCode whole-document form only when the file really is one document (issue 16): a
// JSON-lines file whose first line is cut used to be buffered whole as a "document" (a 990 MB file
// took 3.5 GB and gave 0 of 1.7M parts). Now the second line that is a JSON object on its own ends
// the guess: the cut line is reported and every later line is read as it comes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import type { Diagnostic, ToolEvent } from '../../src/contract/index.js';
import { fixturePath } from '../helpers/golden-cases.js';
import { cli } from '../helpers/cli.js';

const RUN = readFileSync(fixturePath('opencode/run1', 'run1-run.jsonl'), 'utf8').split('\n').filter(Boolean);

describe('a JSON-lines file whose first line is cut', () => {
  const lines = [RUN[0]!.slice(0, 40), ...RUN.slice(1)];

  it('is read line by line as it comes, not held as a document', () => {
    const events: ToolEvent[] = [];
    const diagnostics: Diagnostic[] = [];
    const a = opencodeAdapter.create({ event: (e) => events.push(e), diagnostic: (d) => diagnostics.push(d) }, {});
    lines.forEach((l, i) => a.line(l, { line: i + 1, offset: 0 }));
    // Before end(): the events are already out, so nothing was buffered waiting for a document.
    expect(events.length).toBeGreaterThan(0);
    expect(diagnostics.map((d) => d.code)).toEqual(['malformed_line']);
    expect(diagnostics[0]!.source?.line).toBe(1);
    a.end();
  });

  it('through the CLI: exit 0, one malformed_line, every other part', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-doc-'));
    writeFileSync(join(dir, 'whole.jsonl'), `${RUN.join('\n')}\n`);
    writeFileSync(join(dir, 'cut.jsonl'), `${lines.join('\n')}\n`);
    const whole = await cli(['normalize', '--from', 'opencode', '--summary', join(dir, 'whole.jsonl')]);
    const cut = await cli(['normalize', '--from', 'opencode', '--summary', join(dir, 'cut.jsonl')]);
    expect(cut.code).toBe(0);
    const codes = cut.stderr.trim().split('\n').slice(0, -1).map((l) => (JSON.parse(l) as { code: string }).code);
    expect(codes).toEqual(['malformed_line']);
    expect(cut.lines.length).toBeGreaterThan(0);
    // The first line was a step_start: no part is lost by cutting it.
    expect(cut.lines.length).toBe(whole.lines.length);
  });
});
