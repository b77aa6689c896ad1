// The viewer's Node side, without a browser: the command line, what the page embeds (the
// published UI parts, errors, compressions, diagnostics), script-safe JSON, a stored session as
// input, and a page size linear in the parts.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { collect } from '../../src/pipeline/collect.js';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { toUiPart } from '../../src/ui/to-ui.js';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { ViewBuilder, pageOverheadBytes, renderViewHtml, scriptSafeJson, type ViewData } from '../../src/view/index.js';
import type { ToolEvent } from '../../src/contract/index.js';
import { HOSTILE, compressibleEvents, hostileEvents, largeSessionEvents, ndjson } from './sessions.js';

const TMP = mkdtempSync(join(tmpdir(), 'toolnorm-view-page-'));

/** The data a page embeds, read back the way the page's script reads it. */
function embedded(html: string): ViewData {
  const m = html.match(/<script type="application\/json" id="tn-data">([^<]*)<\/script>/);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!) as ViewData;
}

function file(name: string, text: string): string {
  const p = join(TMP, name);
  writeFileSync(p, text);
  return p;
}

describe('toolnorm view (page)', () => {
  it('is listed by toolnorm --help and has its own --help', async () => {
    expect((await cli(['--help'])).stdout).toMatch(/^  view +write a self-contained HTML timeline/m);
    const help = await cli(['view', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('--serve --follow')]);
  });

  it('usage errors exit 2 with the reason; unreadable inputs and stores exit 1', async () => {
    const usage = [
      [['--store', 'sqlite:x.db'], '--store needs --session'],
      [['a.jsonl', '--session', 's'], 'not both'],
      [['a.jsonl', '--follow'], '--follow needs --serve'],
      [['a.jsonl', '--port', '80'], '--port applies to --serve'],
      [['--session', 's', '--serve', '--port', 'x'], '--port must be'],
      [['--session', 's', '--compress'], '--compress applies to FILE'],
    ] as const;
    const noInput = await cli(['view'], { tty: true });
    expect([noInput.code, noInput.stderr]).toEqual([2, expect.stringContaining('missing FILE')]);
    for (const [args, why] of usage) {
      const r = await cli(['view', ...args]);
      expect([r.code, r.stderr.split('\n')[0]], args.join(' ')).toEqual([2, expect.stringContaining(why)]);
    }
    const missing = await cli(['view', join(TMP, 'nope.jsonl'), '-o', join(TMP, 'x.html')]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/^toolnorm view: cannot read .*nope\.jsonl: no such file or directory\n$/)]);
    const noStore = await cli(['view', '--store', `sqlite:${join(TMP, 'absent.db')}`, '--session', 's', '-o', join(TMP, 'x.html')]);
    expect(noStore.code).toBe(1);
    expect(noStore.stderr).toMatch(/^toolnorm view: cannot open store/);
    const garbage = await cli(['view', file('garbage.txt', 'hello\nworld\n'), '-o', join(TMP, 'x.html')]);
    expect([garbage.code, garbage.stderr]).toEqual([1, expect.stringContaining('cannot tell the input format')]);
  });

  it('embeds the published UI part of every part, the contract error, and the diagnostics', async () => {
    const events = hostileEvents();
    const input = ndjson(events) + 'not json\n';
    const out = join(TMP, 'h.html');
    const r = await cli(['view', file('h.events.jsonl', input), '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*h\.html \(3 parts, \d+ bytes\)/);
    const data = embedded(readFileSync(out, 'utf8'));
    const stdout = await cli(['view', join(TMP, 'h.events.jsonl'), '-o', '-']);
    expect([stdout.code, stdout.stdout]).toEqual([0, readFileSync(out, 'utf8')]);
    const expected = collect(eventsAdapter, input);
    expect(data.parts.map((p) => p.ui)).toEqual(expected.parts.map((p) => toUiPart(p, { states: 'canonical' })));
    expect(data.parts.map((p) => p.error)).toEqual(expected.parts.map((p) => (p.state === 'error' ? p.error : undefined)));
    expect(data.parts.every((p) => p.session === events[0]!.sessionId)).toBe(true);
    expect(data.sessions).toEqual([{ id: events[0]!.sessionId, provider: 'claude' }]);
    // The bad line is reported, not dropped.
    expect(data.diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['malformed_line', events.length + 1]]);
    expect(data.diagnosticsOmitted).toBe(0);
  });

  it('writes JSON that no string can break out of, and that reads back unchanged', () => {
    const value = { a: HOSTILE, b: '</script><!--<script>', c: '\u2028\u2029', d: '&lt;' };
    const text = scriptSafeJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
    const b = new ViewBuilder();
    for (const e of hostileEvents()) b.add(e);
    const html = renderViewHtml(b.data('x'));
    // Exactly the page's own two scripts, and one policy allowing only the second by its hash.
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html).toMatch(/content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'/);
    expect(embedded(html).parts.map((p) => p.ui.title)).toContain(HOSTILE.title);
  });

  it('compressed outputs carry the compressed view, the stats, and the full text unless left out', async () => {
    const { events, fullText } = compressibleEvents();
    const input = file('c.events.jsonl', ndjson(events));
    for (const omit of [false, true]) {
      const out = join(TMP, `c-${omit}.html`);
      const r = await cli(['view', '--compress', ...(omit ? ['--omit-full'] : []), input, '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      const big = embedded(readFileSync(out, 'utf8')).parts.find((p) => p.ui.toolCallId === 'big')!;
      expect(big.compression!.record.stats).toMatchObject({ specId: 'claude-bash', originalBytes: Buffer.byteLength(fullText), originalLines: 5000 });
      expect(Buffer.byteLength((big.compression!.output as { text: string }).text)).toBeLessThanOrEqual(30_000);
      expect(big.compression!.fullIncluded).toBe(!omit);
      expect((big.ui.output as { text: string } | undefined)?.text).toBe(omit ? undefined : fullText);
      const small = embedded(readFileSync(out, 'utf8')).parts.find((p) => p.ui.toolCallId === 'small')!;
      expect(small.compression).toBeUndefined();
    }
  });

  it('reads a stored session (and names no other), with the replay diagnostics', async () => {
    const db = join(TMP, 'store.db');
    const store = new SqliteEventStore(db);
    const events = largeSessionEvents(60);
    await store.append('sess-large', events, 0);
    await store.append('other', [{ ...events[0]!, sessionId: 'other' }], 0);
    await store.close();
    const out = join(TMP, 'store.html');
    const r = await cli(['view', '--store', `sqlite:${db}`, '--session', 'sess-large', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const data = embedded(readFileSync(out, 'utf8'));
    expect(data.sessions.map((s) => s.id)).toEqual(['sess-large']);
    expect(data.parts.map((p) => p.ui.toolCallId)).toEqual(Array.from({ length: 60 }, (_, i) => `part-${i}`));
    expect(data.source).toBe(`sqlite:${db} · session sess-large`);
    const none = await cli(['view', '--store', `sqlite:${db}`, '--session', 'nope', '-o', out]);
    expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('no session nope')]);
  });

  it('a stored session brings the child sessions its subagent parts name (transitively), and no other', async () => {
    const db = join(TMP, 'store-children.db');
    const store = new SqliteEventStore(db);
    const at = (n: number) => ({ at: n, source: { provider: 'opencode' as const, line: n } });
    const call = (sessionId: string, partId: string, n: number, metadata: Record<string, unknown> = {}): ToolEvent => ({
      type: 'tool.started', sessionId, partId, ...at(n), name: 'task', kind: 'subagent', title: `${sessionId}/${partId}`, input: {}, metadata: { provider: 'opencode', ...metadata },
    } as ToolEvent);
    await store.append('main', [call('main', 'a', 1, { childSessionId: 'kid' })], 0);
    await store.append('kid', [call('kid', 'b', 2, { parentId: 'a', childSessionId: 'grandkid' })], 0);
    await store.append('grandkid', [call('grandkid', 'c', 3, { parentId: 'b' })], 0);
    await store.append('unrelated', [call('unrelated', 'd', 4)], 0);
    await store.close();
    const out = join(TMP, 'store-children.html');
    const r = await cli(['view', '--store', `sqlite:${db}`, '--session', 'main', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const data = embedded(readFileSync(out, 'utf8'));
    expect(data.sessions.map((s) => s.id)).toEqual(['main', 'kid', 'grandkid']);
    expect(data.parts.map((p) => `${p.session}/${p.ui.toolCallId}`)).toEqual(['main/a', 'kid/b', 'grandkid/c']);
  });

  it('the viewer reads the contract only: no provider input field name appears in its code', () => {
    // What the page shows of a call's substance comes from metadata.command|files|plan|approval;
    // the input is only ever shown whole, as JSON. Names from Claude, Codex and OpenCode inputs:
    const PROVIDER_FIELDS = /\b(file_path|old_string|new_string|oldString|newString|filePath|notebook_path|todos|patch|unified_diff)\b|\.input(\.|\[)/;
    const dir = join(REPO_ROOT, 'src/view');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('client.ts');
    for (const f of files) {
      const hits = readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => PROVIDER_FIELDS.test(l));
      expect(hits, f).toEqual([]);
    }
    // The control: the pattern does catch such a read.
    expect(PROVIDER_FIELDS.test("var p = ui.input.file_path;")).toBe(true);
    expect(PROVIDER_FIELDS.test("var c = p.v.ui.input['command'];")).toBe(true);
    expect(PROVIDER_FIELDS.test("var d = meta(ui).files;")).toBe(false);
  });

  it('page size is the fixed overhead plus the embedded parts: linear in the parts', () => {
    const size = (n: number) => {
      const b = new ViewBuilder();
      for (const e of largeSessionEvents(n)) b.add(e);
      const data = b.data('s');
      return { bytes: Buffer.byteLength(renderViewHtml(data)), json: Buffer.byteLength(scriptSafeJson(data.parts)) };
    };
    const overhead = pageOverheadBytes();
    const [a, b] = [size(1000), size(4000)];
    // Everything beyond the overhead is the parts' JSON (plus the few bytes naming the session).
    expect(a.bytes - overhead - a.json).toBeLessThan(200);
    expect(b.bytes - overhead - b.json).toBeLessThan(200);
    const perPart = (b.bytes - a.bytes) / 3000;
    expect(Math.abs((a.bytes - overhead) / 1000 - perPart) / perPart).toBeLessThan(0.02);
  });
});
