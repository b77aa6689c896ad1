// ACP on every corpus recording, read through the real adapters: every file call whose adapter
// filled metadata.files has absolute `locations` for each of its paths and, for each change whose
// texts or diff are known, `diff` content; every todo call with metadata.plan is followed by a
// `plan` update; every frame validates against the official SDK schema (v1 and v2). The counts per
// provider are printed: until an adapter fills the substance, its counts show it (0 parts with files).
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectAdapter } from '../../src/adapters/registry.js';
import { collect } from '../../src/pipeline/collect.js';
import { encodeParts } from '../../src/acp/encoder.js';
import { encodePartsV2 } from '../../src/acp/encoder-v2.js';
import { diffOfChange } from '../../src/acp/content.js';
import { isAbsolutePath } from '../../src/substance/index.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';
import { officialAcpV2Errors } from '../helpers/acp-schema-v2.js';
import { corpusInputs, corpusPath } from '../helpers/ecosystem.js';

type Update = Record<string, unknown> & { sessionUpdate: string; toolCallId?: string };
interface Count { fileParts: number; withFiles: number; located: number; diffs: number; todoParts: number; withPlan: number; planFrames: number; pending: number }
const counts = new Map<string, Count>();
const count = (provider: string) => {
  let c = counts.get(provider);
  if (!c) counts.set(provider, (c = { fileParts: 0, withFiles: 0, located: 0, diffs: 0, todoParts: 0, withPlan: 0, planFrames: 0, pending: 0 }));
  return c;
};
const FILE_KINDS = new Set(['file_edit', 'file_write']);

describe('ACP substance on every corpus recording', () => {
  const files = corpusInputs();
  it.each(files)('%s', (rel) => {
    const text = readFileSync(corpusPath(rel), 'utf8');
    const adapter = detectAdapter({ lines: text.split('\n').filter((l) => l.trim()).slice(0, 20), file: rel })!.adapter;
    const { sessions } = collect(adapter, [{ name: rel, text }], {});
    const c = count(rel.split('/')[0]!);
    for (const [sid, parts] of sessions as Map<string, NormalizedToolPart[]>) {
      const frames = JSON.parse(JSON.stringify(encodeParts(sid, parts))) as { sessionId: string; update: Update }[];
      for (const f of frames) expect(officialAcpErrors(f), JSON.stringify(f).slice(0, 200)).toEqual([]);
      for (const f of JSON.parse(JSON.stringify(encodePartsV2(sid, parts))) as unknown[]) expect(officialAcpV2Errors(f)).toEqual([]);
      const held = (id: string) => Object.assign({}, ...frames.filter((f) => f.update.toolCallId === id).map((f) => f.update)) as Update;
      for (const p of parts) {
        const cwd = typeof p.metadata?.cwd === 'string' ? p.metadata.cwd : undefined;
        if (FILE_KINDS.has(p.kind)) {
          c.fileParts++;
          const changes = p.metadata?.files ?? [];
          if (changes.length) c.withFiles++;
          const h = held(p.id);
          const locs = ((h.locations as { path: string }[] | undefined) ?? []).map((l) => l.path);
          for (const l of locs) expect(isAbsolutePath(l), l).toBe(true);
          const diffs = ((h.content as Update[] | undefined) ?? []).filter((x) => x.type === 'diff').map((x) => x.path);
          for (const f of changes) {
            if (!isAbsolutePath(f.path) && !cwd) continue; // no way to make it absolute without guessing
            const want = diffOfChange(f, cwd);
            expect(locs.length, `${p.id} ${f.path}`).toBeGreaterThan(0);
            if (want && want.type === 'diff') expect(diffs, `${p.id} ${f.path}`).toContain(want.path);
          }
          if (locs.length) c.located++;
          if (diffs.length) c.diffs++;
        }
        if (p.kind === 'todo') {
          c.todoParts++;
          if (p.metadata?.plan && p.state !== 'error') {
            c.withPlan++;
            const i = frames.findLastIndex((f) => f.update.toolCallId === p.id);
            const next = frames.slice(i + 1).find((f) => f.update.sessionUpdate === 'plan' || f.update.toolCallId !== undefined);
            // Unless the plan is the one already sent (unchanged), a plan update follows the call.
            if (next?.update.sessionUpdate === 'plan') c.planFrames++;
          }
        }
        if (p.metadata?.approval?.state === 'pending' && (p.state === 'started' || p.state === 'running')) {
          c.pending++;
          expect(held(p.id).status).toBe('pending');
        }
      }
      expect(frames.filter((f) => f.update.sessionUpdate === 'plan').length).toBeLessThanOrEqual(parts.filter((p) => p.metadata?.plan).length);
    }
  });

  afterAll(() => {
    for (const [provider, c] of counts) console.log(`ACP substance ${provider}: ${c.fileParts} edit/write parts, ${c.withFiles} with metadata.files, ${c.located} with locations, ${c.diffs} with diff content; ${c.todoParts} todo parts, ${c.withPlan} with metadata.plan, ${c.planFrames} followed by a plan update; ${c.pending} waiting for an approval`);
  });
});
