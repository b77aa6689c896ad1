// Real temp directories for executor tests (under os.tmpdir(), removed afterwards) and small
// helpers around the executor.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { issuesOfNormalizedToolPart, issuesOfToolEvent, type ToolEvent } from '../../src/contract/index.js';
import type { ExecutionResult } from '../../src/executor/index.js';

/** A fresh real directory (symlinks resolved), removed when the file's tests end. */
export function tempDir(prefix = 'toolnorm-exec-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Asserts the basics every executor result must meet; returns the event types in order. */
export function checkResult(r: ExecutionResult): string[] {
  const partIssues = issuesOfNormalizedToolPart(r.part);
  if (partIssues.length) throw new Error(`invalid part: ${JSON.stringify(partIssues)}`);
  r.events.forEach((e, i) => {
    const issues = issuesOfToolEvent(e);
    if (issues.length) throw new Error(`invalid event ${i}: ${JSON.stringify(issues)}`);
    if (i > 0 && e.seq !== r.events[i - 1]!.seq + 1) throw new Error(`seq gap at event ${i}: ${r.events[i - 1]!.seq} → ${e.seq}`);
    if (e.partId !== r.part.id) throw new Error(`event ${i} is about ${e.partId}, not ${r.part.id}`);
    if (e.source.provider !== 'executor') throw new Error(`event ${i} has provider ${e.source.provider}`);
  });
  return r.events.map((e: ToolEvent) => e.type);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
