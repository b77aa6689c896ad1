// One meaning per call whatever the form: the corpus (and the 0.171 Codex fixtures) hold the same
// runs recorded in several forms. A call that appears in more than one form of a run must come out
// with the same title, kind, state and error code in each.
//
// Matching: Claude and OpenCode forms of one run share the provider's call ids. Codex exec renumbers
// items (`item_N`), so Codex calls are matched by what they did: the unwrapped command, the MCP
// server/tool and arguments, the files a patch names, the web-search action. Plans are not matched:
// exec reports one todo_list per turn, app-server one turn plan, rollouts each update_plan call.
// Options are what the CLI would use: OpenCode forms get the evidence beside them
// (src/adapters/opencode/neighbours.ts); Codex exec lines carry no working directory, so the exec
// form gets the run's directory the way `--cwd` gives it.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdapterDefinition, AdapterOptions } from '../../src/adapters/types.js';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { readNeighbours } from '../../src/adapters/opencode/neighbours.js';
import { scriptOf } from '../../src/adapters/shared/shell.js';
import { collect } from '../../src/pipeline/collect.js';
import { CORPUS, REPO_ROOT, corpusAvailable } from '../helpers/corpus.js';

type Obj = Record<string, unknown>;
interface Part {
  id: string;
  name: string;
  kind: string;
  title: string;
  state: string;
  input: unknown;
  error?: { code?: string };
  metadata?: Obj;
}
interface Form {
  label: string;
  files: string[];
  options?: AdapterOptions;
}
interface Run {
  name: string;
  adapter: AdapterDefinition;
  forms: Form[];
  key: 'id' | 'codex';
  /** How many calls must appear in at least two forms (so the test is not vacuous). */
  shared: number;
}

const available = corpusAvailable();
const C = (rel: string) => join(CORPUS, rel);
const F = (rel: string) => join(REPO_ROOT, 'fixtures', rel);
const neighbours = (file: string): AdapterOptions => {
  const n = readNeighbours([file]);
  return { ...(n.mcpServers.length ? { mcpServers: n.mcpServers } : {}), ...(n.cwd ? { cwd: n.cwd } : {}) };
};

const RUNS: Run[] = [
  {
    name: 'codex 0.163 probe (exec, app-server, rollout)',
    adapter: codexAdapter,
    key: 'codex',
    shared: 5,
    forms: [
      { label: 'exec', files: [C('codex/captured/exec_tools_plan.jsonl')], options: { cwd: '/home/user/demo-codex/work' } },
      { label: 'exec (update_plan off)', files: [C('codex/captured/exec_tools_gpt55.jsonl')], options: { cwd: '/home/user/demo-codex/work' } },
      { label: 'app-server', files: [C('codex/captured/appserver_tools.jsonl')] },
      { label: 'rollout', files: [C('codex/captured/rollout-0163-probe.jsonl')] },
    ],
  },
  {
    name: 'codex 0.171 exec run (exec, its rollout)',
    adapter: codexAdapter,
    key: 'codex',
    shared: 4,
    forms: [
      { label: 'exec', files: [F('codex/capture-0171/exec-0171-errors.jsonl')], options: { cwd: '/home/user/cx/work' } },
      { label: 'rollout', files: [F('codex/capture-0171/rollout-0171-exec-errors.jsonl')] },
    ],
  },
  {
    name: 'codex 0.171 app-server run (app-server, its rollout)',
    adapter: codexAdapter,
    key: 'codex',
    shared: 6,
    forms: [
      { label: 'app-server', files: [F('codex/capture-0171/appserver-0171-errors.jsonl')] },
      { label: 'rollout', files: [F('codex/capture-0171/rollout-0171-appserver-errors.jsonl')] },
    ],
  },
  {
    name: 'claude 2.1.332 all tools (stream-json, transcript + subagent transcript)',
    adapter: claudeAdapter,
    key: 'id',
    shared: 16,
    forms: [
      { label: 'stream-json', files: [C('claude/captured/streamjson-2.1.332-all-tools.jsonl')] },
      {
        label: 'transcript',
        files: [C('claude/captured/transcript-2.1.332-all-tools.filtered.jsonl'), C('claude/captured/transcript-2.1.332-subagent-agent-a9eb076ac095ef555.filtered.jsonl')],
      },
    ],
  },
  ...(['run1', 'run2'] as const).map((run) => ({
    name: `opencode 1.18.33 ${run} (run JSON, /event, /global/event, export, messages API)`,
    adapter: opencodeAdapter,
    key: 'id' as const,
    shared: run === 'run1' ? 13 : 3,
    forms: [
      { label: 'run JSON', files: [C(`opencode/captured/${run}/run.jsonl`)], options: neighbours(C(`opencode/captured/${run}/run.jsonl`)) },
      { label: '/event', files: [C(`opencode/captured/${run}/events.sse`)] },
      { label: '/global/event', files: [C(`opencode/captured/${run}/global-events.sse`)] },
      { label: 'export', files: [C(`opencode/captured/${run}/export.json`), C(`opencode/captured/${run}/export-child.json`)] },
      { label: 'messages API', files: [C(`opencode/captured/${run}/messages-api.json`)] },
    ].map((f) => ({ ...f, files: f.files.filter((p) => existsSync(p)) })).filter((f) => f.files.length > 0),
  })),
  {
    name: 'opencode 1.18.33 run3, fixtures (run JSON, /event, export), config beside',
    adapter: opencodeAdapter,
    key: 'id',
    shared: 8,
    forms: ['run.jsonl', 'events.sse', 'export.json'].map((f) => ({ label: f, files: [F(`opencode/run3/${f}`)], options: neighbours(F(`opencode/run3/${f}`)) })),
  },
];

/** What a Codex call did, independent of the form's ids. */
function codexKey(p: Part): string | undefined {
  const input = (p.input && typeof p.input === 'object' ? p.input : {}) as Obj;
  if (p.kind === 'bash' && p.name !== 'write_stdin') return `bash:${scriptOf(input.command)?.trim()}`;
  const mcp = p.metadata?.mcp as { server?: string; tool?: string } | undefined;
  if (mcp) return `mcp:${mcp.server}/${mcp.tool}:${JSON.stringify(input)}`;
  if (p.kind === 'file_write' || p.kind === 'file_edit') {
    const changes = Array.isArray(input.changes) ? (input.changes as Obj[]).map((c) => basename(String(c.path))) : [];
    return `patch:${changes.sort().join(',')}`;
  }
  if (p.kind === 'web_search') return `web:${JSON.stringify(p.metadata?.action ?? input)}`;
  return undefined;
}

const meaning = (p: Part) => ({ title: p.title, kind: p.kind, state: p.state, code: p.error?.code ?? null });

describe.skipIf(!available)('one meaning per call across the forms of a run', () => {
  it.each(RUNS)('$name', (run) => {
    expect(run.forms.length).toBeGreaterThanOrEqual(2);
    // key → form label → what the call means there
    const seen = new Map<string, Map<string, ReturnType<typeof meaning>>>();
    for (const form of run.forms) {
      const parts = collect(run.adapter, form.files.map((f) => ({ name: basename(f), text: readFileSync(f, 'utf8') })), form.options ?? {}).parts as Part[];
      expect(parts.length, form.label).toBeGreaterThan(0);
      for (const p of parts) {
        const key = run.key === 'id' ? p.id : codexKey(p);
        if (!key) continue;
        if (!seen.has(key)) seen.set(key, new Map());
        seen.get(key)!.set(form.label, meaning(p));
      }
    }
    const shared = [...seen.entries()].filter(([, byForm]) => byForm.size >= 2);
    expect(shared.length, 'calls seen in two forms or more').toBeGreaterThanOrEqual(run.shared);
    for (const [key, byForm] of shared) {
      const [first, ...rest] = [...byForm.entries()];
      for (const [label, m] of rest) expect({ call: key, form: label, ...m }).toEqual({ call: key, form: label, ...first![1] });
    }
  });
});
