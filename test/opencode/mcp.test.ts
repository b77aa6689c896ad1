// MCP identity for OpenCode: `<server>_<tool>` ids split into {server, tool} and titled by the
// shared registry whenever the server list is known — from the stream (`mcp.tools.changed`), the
// config beside the recording, or `--mcp-server` — and the same MCP tool has the same `name` as
// Claude and Codex give it (the tool's own name).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { parseJsonc, readNeighbours } from '../../src/adapters/opencode/neighbours.js';
import { collect } from '../../src/pipeline/collect.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { fixturePath } from '../helpers/golden-cases.js';

const FIX = join(REPO_ROOT, 'fixtures', 'opencode');
const ECHO = 'prt_22b6eea0e00141P4uFzgDNp71H';
const MISSING_READ = 'prt_22b6ee962001GMwavhfcKQVgrt';
type Part = { id: string; name: string; title: string; metadata?: { mcp?: unknown; rawType?: string } };

// The config the capture ran with (fixtures/opencode/SOURCES.md: `mcp.demo`, a local command), as
// OpenCode reads it: JSON with comments.
const CONFIG = `{
  // the capture's stdio MCP server
  "mcp": { "demo": { "type": "local", "command": ["node", "demo-mcp.mjs"], "enabled": true, }, },
  "permission": { "*": "allow" },
}`;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** run.jsonl (and, when asked, the export and the config) in a fresh directory, as a capture leaves them. */
function captureDir(withConfig: boolean, withExport: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-oc-'));
  dirs.push(dir);
  copyFileSync(join(FIX, 'run1', 'run1-run.jsonl'), join(dir, 'run.jsonl'));
  if (withExport) copyFileSync(join(FIX, 'run1', 'run1-export', 'export.json'), join(dir, 'export.json'));
  if (withConfig) writeFileSync(join(dir, 'opencode.jsonc'), CONFIG);
  return dir;
}

const byId = (lines: unknown[], id: string) => (lines as Part[]).find((p) => p.id === id)!;

describe('opencode MCP identity', () => {
  it('JSONC configs parse (comments, trailing commas, slashes inside strings)', () => {
    expect(parseJsonc(CONFIG)).toMatchObject({ mcp: { demo: { command: ['node', 'demo-mcp.mjs'] } } });
    expect(parseJsonc('{"url": "http://x//y", /* c */ "a": [1,],}')).toEqual({ url: 'http://x//y', a: [1] });
    expect(parseJsonc('{')).toBeUndefined();
  });

  it('the neighbours of a recording name its MCP servers and its session directory', () => {
    const dir = captureDir(true, true);
    expect(readNeighbours([join(dir, 'run.jsonl')])).toEqual({ mcpServers: ['demo'], cwd: '/home/user/demo-opencode/cap/ws', sources: ['opencode.jsonc', 'export.json'] });
    expect(readNeighbours([join(captureDir(false, false), 'run.jsonl')])).toEqual({ mcpServers: [], sources: [] });
  });

  it('toolnorm normalize on run JSON with its config beside it gives metadata.mcp, the tool name and the registry title', async () => {
    const dir = captureDir(true, true);
    const r = await cli(['normalize', 'run.jsonl'], { cwd: dir });
    expect(r.code).toBe(0);
    const echo = byId(r.lines, ECHO);
    expect(echo).toMatchObject({ name: 'echo', kind: 'mcp', title: 'Echo (demo)', metadata: { mcp: { server: 'demo', tool: 'echo' }, rawType: 'demo_echo' } });
    // The export beside gives the directory: the failed read (no OpenCode title) is relative too.
    expect(byId(r.lines, MISSING_READ).title).toBe('Reading does-not-exist.txt');
  });

  it('without evidence the id is kept whole; --mcp-server overrides the config', async () => {
    const bare = await cli(['normalize', 'run.jsonl'], { cwd: captureDir(false, false) });
    expect(byId(bare.lines, ECHO)).toMatchObject({ name: 'demo_echo', kind: 'mcp', title: 'Running demo_echo' });
    expect(byId(bare.lines, ECHO).metadata?.mcp).toBeUndefined();
    const overridden = await cli(['normalize', '--mcp-server', 'other', 'run.jsonl'], { cwd: captureDir(true, false) });
    expect(byId(overridden.lines, ECHO).metadata?.mcp).toBeUndefined();
  });

  it('an mcp.tools.changed event in the stream names the server', () => {
    const sse = readFileSync(join(FIX, 'run1', 'run1-events.sse'), 'utf8');
    const event = `data: ${JSON.stringify({ id: 'evt_mcp', type: 'mcp.tools.changed', properties: { server: 'demo' } })}\n\n`;
    const parts = collect(opencodeAdapter, [{ name: 'events.sse', text: event + sse }]).parts as Part[];
    expect(parts.find((p) => p.id === ECHO)).toMatchObject({ name: 'echo', title: 'Echo (demo)', metadata: { mcp: { server: 'demo', tool: 'echo' } } });
  });

  it('the same MCP tool has the same name and title rule from Claude, Codex and OpenCode', () => {
    const oc = collect(opencodeAdapter, [{ name: 'events.sse', text: readFileSync(join(FIX, 'run1', 'run1-events.sse'), 'utf8') }], { mcpServers: ['demo'] }).parts as Part[];
    const ocEcho = oc.find((p) => p.id === ECHO)!;
    const codex = JSON.parse(readFileSync(fixturePath('codex/capture-0171', 'exec-0171-errors.parts.json'), 'utf8')) as Part[];
    const claudeParts = JSON.parse(readFileSync(fixturePath('claude/streamjson-all-tools', 'streamjson-all-tools.parts.json'), 'utf8')) as Part[];
    const codexEcho = codex.find((p) => (p.metadata?.mcp as { tool?: string } | undefined)?.tool === 'echo')!;
    const claudeEcho = claudeParts.find((p) => (p.metadata?.mcp as { tool?: string } | undefined)?.tool === 'echo')!;
    expect([ocEcho.name, codexEcho.name, claudeEcho.name]).toEqual(['echo', 'echo', 'echo']);
    // Each names its own server ("demo" / "probe"); the title rule is the registry's, server in brackets.
    expect([ocEcho.title, codexEcho.title, claudeEcho.title]).toEqual(['Echo (demo)', 'Echo (probe)', 'Echo (probe)']);
  });

  it.each(['run.jsonl', 'events.sse', 'export.json'])('toolnorm normalize on the real run3 %s (opencode.json beside) splits both MCP calls', async (file) => {
    const r = await cli(['normalize', join('fixtures', 'opencode', 'run3', file)], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    const mcp = (r.lines as Part[]).filter((p) => p.metadata?.mcp).map((p) => ({ name: p.name, title: p.title, mcp: p.metadata!.mcp, rawType: p.metadata!.rawType }));
    expect(mcp.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'echo', title: 'Echo (demo)', mcp: { server: 'demo', tool: 'echo' }, rawType: 'demo_echo' },
      { name: 'fail', title: 'Fail (demo)', mcp: { server: 'demo', tool: 'fail' }, rawType: 'demo_fail' },
    ]);
    // No part of the run is left with kind unknown: the missing tools keep the kind of their name.
    expect((r.lines as (Part & { kind: string })[]).filter((p) => p.kind === 'unknown')).toEqual([]);
  });

  it('run3: the failing calls by id, as the rule gives them', async () => {
    const r = await cli(['normalize', join('fixtures', 'opencode', 'run3', 'events.sse')], { cwd: REPO_ROOT });
    const failing = (r.lines as (Part & { state: string; error?: { code: string } })[]).filter((p) => p.state === 'error').map((p) => `${p.id}:${p.error!.code}`).sort();
    expect(failing).toEqual([
      'prt_230afdc2c001V3rdHOkYgrZP3j:exit_nonzero', // bash exit 7, stored completed
      'prt_230afdccb001bdA0knWfzMUnM6:exit_nonzero', // ls of a missing directory, exit 2, stored completed
      'prt_230afddad001On1rsu6Q0s5e0s:unknown_tool', // list (file_read)
      'prt_230afddff00188kX6uYWlUf4HY:unknown_tool', // patch (file_edit)
      'prt_230afde71001AIMBa3sil5Lumq:unknown_tool', // question (question)
      'prt_230afe0130018WDNN3HCLhxzw5:tool_error', // demo_fail, isError
    ]);
  });
});
