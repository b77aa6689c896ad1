// A folder of many recordings read as one stream: every file's line reader waits on the run's one
// interrupt signal. A listener per file made Node print a MaxListenersExceededWarning on stderr for
// a folder of more than ten files (seen on the Codex corpus folder); stderr must carry diagnostics only.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

const DEMO = join(REPO_ROOT, 'fixtures/demo/claude-streamjson-all-tools.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-many-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('normalize DIR of many files', () => {
  it('prints no Node warning on stderr for 24 files, and reads every one', () => {
    for (let i = 0; i < 24; i++) copyFileSync(DEMO, join(dir, `s${String(i).padStart(2, '0')}.jsonl`));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'normalize', '--summary', dir], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/Warning|MaxListeners/);
    const summary = JSON.parse(r.stderr.trim().split('\n').pop()!) as { inputLines: number };
    const one = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'normalize', '--summary', DEMO], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(summary.inputLines).toBe(24 * (JSON.parse(one.stderr.trim().split('\n').pop()!) as { inputLines: number }).inputLines);
  });
});
