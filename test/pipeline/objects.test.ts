// Objects in: a UI holding provider SDK objects gets the same parts as the CLI reading their JSON
// lines. Every corpus recording is turned into the objects a program would hold (one per JSON
// line; the `data:` payloads of an SSE stream; the whole value of a JSON document) and fed
// through collectValues, the pipeline's value() and the live normalizer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterById } from '../../src/adapters/registry.js';
import { collect, collectValues, splitLines } from '../../src/pipeline/collect.js';
import { NormalizePipeline } from '../../src/pipeline/normalize.js';
import { LiveNormalizer } from '../../src/pipeline/live.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { CORPUS, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

/** The objects a program holds for a recording, or undefined for a file that is not a stream of values. */
function objectsOf(text: string): unknown[] | undefined {
  const lines = splitLines(text).map((l) => l.text).filter((l) => l.trim());
  if (lines.some((l) => /^(data|event|id|retry):/.test(l))) {
    // SSE: one value per event, its data lines joined.
    const out: unknown[] = [];
    let data: string[] = [];
    const flush = () => {
      if (data.length) out.push(JSON.parse(data.join('\n')));
      data = [];
    };
    for (const raw of splitLines(text).map((l) => l.text)) {
      if (!raw.trim()) flush();
      else if (raw.startsWith('data:')) data.push(raw.slice(5).replace(/^ /, ''));
    }
    flush();
    return out;
  }
  try {
    return lines.map((l) => JSON.parse(l) as unknown);
  } catch {
    try {
      return [JSON.parse(text)];
    } catch {
      return undefined;
    }
  }
}

const PROVIDERS = ['claude', 'codex', 'opencode'] as const;
const cases = corpusAvailable()
  ? PROVIDERS.flatMap((p) => corpusFiles(p, (n) => /\.(jsonl|json|sse)$/.test(n)).map((rel) => [p, rel] as const))
  : [];

const strip = (parts: NormalizedToolPart[]) => JSON.parse(JSON.stringify(parts)) as NormalizedToolPart[];

/**
 * The one thing an object cannot carry: Codex exec writes web-search items with two `id` keys,
 * and JSON.parse (the Codex SDK's too) keeps only the last, the provider's `ws_…` id. From lines
 * the part id is the first (`item_N`) with the other in `metadata.providerItemId`; from objects
 * the part id is the `ws_…` id. Every other field must be equal.
 */
function asObjectsSee(parts: NormalizedToolPart[]): NormalizedToolPart[] {
  return strip(parts).map((p) => {
    const meta = p.metadata as Record<string, unknown> | undefined;
    if (typeof meta?.providerItemId !== 'string') return p;
    const { providerItemId, ...rest } = meta;
    return { ...p, id: providerItemId, metadata: rest } as NormalizedToolPart;
  });
}
const byId = (parts: NormalizedToolPart[]) => [...parts].sort((a, b) => a.id.localeCompare(b.id));

describe.runIf(cases.length > 0)('objects give the same parts as their JSON lines', () => {
  it('covers every provider', () => {
    expect(new Set(cases.map(([p]) => p))).toEqual(new Set(PROVIDERS));
  });

  it.each(cases)('%s %s', (provider, rel) => {
    const adapter = adapterById(provider)!;
    const text = readFileSync(join(CORPUS, rel), 'utf8');
    const objects = objectsOf(text);
    expect(objects, 'the recording reads as values').toBeDefined();
    const fromLines = collect(adapter, text);
    const fromObjects = collectValues(adapter, objects!);
    expect(strip(fromObjects.parts)).toEqual(asObjectsSee(fromLines.parts));
    expect(fromObjects.events.length).toBe(fromLines.events.length);

    // The streaming pipeline, fed values, prints the same parts as fed lines.
    const run = (feed: (p: NormalizePipeline<'parts'>) => void) => {
      const out: NormalizedToolPart[] = [];
      const p = new NormalizePipeline(adapter, { to: 'parts' }, { output: (part) => out.push(part), diagnostic: () => {} });
      feed(p);
      p.end();
      return out;
    };
    const byLine = run((p) => splitLines(text).forEach((l, i) => p.line(l.text, { line: i + 1, offset: l.offset })));
    const byValue = run((p) => objects!.forEach((o, i) => p.value(o, { line: i + 1, offset: 0 })));
    expect(byValue.length).toBe(byLine.length);
    expect(byId(strip(byValue))).toEqual(byId(asObjectsSee(byLine)));

    // Live: the last update of every part is the part collect builds.
    const live = new LiveNormalizer({ from: provider, retireAfterEvents: Number.MAX_SAFE_INTEGER });
    const last = new Map<string, NormalizedToolPart>();
    for (const o of objects!) for (const u of live.push(o)) if (u.type === 'part') last.set(`${u.sessionId}\u0000${u.part.id}`, u.part);
    for (const u of live.end()) if (u.type === 'part') last.set(`${u.sessionId}\u0000${u.part.id}`, u.part);
    const expected = new Map<string, NormalizedToolPart>();
    for (const [session, parts] of fromLines.sessions) for (const p of parts) expected.set(`${session}\u0000${p.id}`, p);
    expect(byId(strip([...last.values()]))).toEqual(byId(asObjectsSee([...expected.values()])));
  });
});
