// The small pieces the Codex tables are built from: shell unwrapping, the exec duplicate-id scan,
// web-search titles, patches, call outputs, MCP names, recorder envelopes and sniffing.
import { describe, expect, it } from 'vitest';
import { scriptOf, shellWords, unwrapCommand } from '../../src/adapters/shared/shell.js';
import { itemIds } from '../../src/adapters/codex/forms/exec.js';
import { proposedPlan } from '../../src/adapters/codex/substance.js';
import { searchAction, webSearchTitle } from '../../src/adapters/codex/web-search.js';
import { changesOf, changesTitle, changeToolKind, parsePatch, patchIn } from '../../src/adapters/codex/changes.js';
import { readCallOutput } from '../../src/adapters/codex/output.js';
import { callRef, mcpRef } from '../../src/adapters/codex/tools.js';
import { commandActions } from '../../src/adapters/codex/commands.js';
import { commandItemTitle } from '../../src/adapters/shared/command-title.js';
import { rpcOf } from '../../src/adapters/codex/forms/rpc.js';
import { sniffLines } from '../../src/adapters/codex/sniff.js';
import { camel, durationMsOf, get, pathOf, statusOf } from '../../src/adapters/codex/fields.js';
import { mcpResult } from '../../src/adapters/codex/content.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { collect } from '../../src/pipeline/collect.js';

describe('shell wrapper', () => {
  it.each([
    ['bash -lc ls', 'ls'],
    ["/bin/bash -lc 'echo hi && ls /nonexistent_dir'", 'echo hi && ls /nonexistent_dir'],
    ['/bin/zsh -lc "npm test -- --run"', 'npm test -- --run'],
    [`bash -lc 'echo '\\''quoted'\\'' done'`, "echo 'quoted' done"],
    ['bash -l -c "make"', 'make'],
    ['pwsh -NoProfile -Command "Get-ChildItem"', 'Get-ChildItem'],
    ['git status', 'git status'],
    ['bash script.sh', 'bash script.sh'],
  ])('%s → %s', (command, script) => {
    expect(unwrapCommand(command)).toBe(script);
  });

  it('reads argv arrays (rollouts) and joins the ones without a wrapper', () => {
    expect(scriptOf(['bash', '-lc', 'rg "TeamSheet"'])).toBe('rg "TeamSheet"');
    expect(scriptOf(['ls', '-la', 'my dir'])).toBe("ls -la 'my dir'");
    expect(scriptOf(42)).toBeUndefined();
  });

  it('splits words like a shell and refuses unbalanced quotes', () => {
    expect(shellWords(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f g']);
    expect(shellWords(`echo "unterminated`)).toBeUndefined();
    expect(unwrapCommand(`bash -lc "unterminated`)).toBe('bash -lc "unterminated');
  });
});

describe('exec web_search line with two id keys', () => {
  const line = '{"type":"item.started","item":{"id":"item_2","type":"web_search","id":"ws_abc123","query":"q","action":{"type":"search","id":"nested","queries":["x"]}}}';

  it('lists the item-level ids in order, ignoring nested ones', () => {
    expect(itemIds(line)).toEqual(['item_2', 'ws_abc123']);
    // JSON.parse keeps only the last one, which is why the raw scan exists.
    expect((JSON.parse(line) as { item: { id: string } }).item.id).toBe('ws_abc123');
  });

  it('handles escapes, spacing and an id that is not first', () => {
    expect(itemIds('{"type":"item.completed", "item": {"type":"web_search", "id" : "item_\\"9", "query":"a\\"}b", "id":"ws_1"}}')).toEqual(['item_"9', 'ws_1']);
    expect(itemIds('{"type":"turn.started"}')).toEqual([]);
  });
});

describe('web search titles (seed golden examples, both casings)', () => {
  it.each([
    [{ action: { type: 'search', query: 'Reuters top news' } }, 'Searching Reuters top news'],
    [{ action: { type: 'openPage', url: 'https://apnews.com/hub/world-news' } }, 'Opening apnews.com'],
    [{ action: { type: 'open_page', url: 'https://www.apnews.com/' } }, 'Opening apnews.com'],
    [{ action: { type: 'findInPage', url: 'https://apnews.com/article/x', pattern: 'Updated' } }, 'Finding "Updated" on apnews.com'],
    [{ action: { type: 'find_in_page', url: 'https://apnews.com/article/x', pattern: 'Updated' } }, 'Finding "Updated" on apnews.com'],
    [{ query: 'Reuters top news', action: { type: 'search', query: null, queries: ['Reuters top news', 'AP top news'] } }, 'Searching Reuters top news …'],
    [{ query: 'fallback query', action: { type: 'other' } }, 'Searching fallback query'],
    [{ query: '', action: null }, 'Searching the web'],
    [{ query: '', action: { type: 'other' } }, 'Searching the web'],
  ])('%j → %s', (item, title) => {
    expect(webSearchTitle(item as Record<string, unknown>)).toBe(title);
  });

  it('normalizes the action to camelCase and drops empty fields', () => {
    expect(searchAction({ type: 'find_in_page', url: 'https://a.b/', pattern: 'x', query: '' })).toEqual({ type: 'findInPage', url: 'https://a.b/', pattern: 'x' });
    expect(searchAction(null)).toBeUndefined();
  });
});

describe('file changes', () => {
  const patch = '*** Begin Patch\n*** Add File: a/new.txt\n+hello\n+world\n*** Update File: src/x.ts\n*** Move to: src/y.ts\n@@\n-a\n+b\n*** Delete File: old.txt\n*** End Patch\n';

  it('parses apply_patch envelopes', () => {
    expect(parsePatch(patch)).toEqual([
      { path: 'a/new.txt', kind: 'add', diff: 'hello\nworld\n' },
      { path: 'src/x.ts', kind: 'update', movePath: 'src/y.ts', diff: '@@\n-a\n+b\n' },
      { path: 'old.txt', kind: 'delete' },
    ]);
    expect(patchIn(`apply_patch <<'PATCH'\n${patch}PATCH`)).toBe(patch);
    expect(patchIn('no patch here')).toBeUndefined();
  });

  it('reads exec, app-server and rollout change shapes alike', () => {
    expect(changesOf([{ path: '/r/a.txt', kind: 'add' }])).toEqual([{ path: '/r/a.txt', kind: 'add' }]);
    expect(changesOf([{ path: '/r/b.ts', kind: { type: 'update', move_path: '/r/c.ts' }, diff: '@@' }])).toEqual([{ path: '/r/b.ts', kind: 'update', movePath: '/r/c.ts', diff: '@@' }]);
    expect(changesOf({ '/r/d.ts': { type: 'delete', content: 'gone\n' } })).toEqual([{ path: '/r/d.ts', kind: 'delete', diff: 'gone\n' }]);
    expect(changesOf('nonsense')).toEqual([]);
  });

  it('titles with paths relative to cwd; a creation is file_write, anything else file_edit', () => {
    const cwd = '/r';
    expect(changesTitle(changesOf([{ path: '/r/a.txt', kind: 'add' }]), cwd)).toBe('Creating a.txt');
    expect(changesTitle(changesOf([{ path: '/r/b.ts', kind: { type: 'update', move_path: '/r/c.ts' } }]), cwd)).toBe('Moving b.ts to c.ts');
    expect(changesTitle(changesOf([{ path: '/r/a', kind: 'update' }, { path: '/r/b', kind: 'add' }]), cwd)).toBe('Editing a, b');
    expect(changesTitle(changesOf([1, 2, 3, 4, 5].map((n) => ({ path: `/r/f${n}`, kind: 'delete' }))), cwd)).toBe('Deleting f1, f2, f3 and 2 more');
    expect(changesTitle([], cwd)).toBe('Editing files');
    expect(changeToolKind(changesOf([{ path: 'a', kind: 'add' }]))).toBe('file_write');
    expect(changeToolKind(changesOf([{ path: 'a', kind: 'add' }, { path: 'b', kind: 'update' }]))).toBe('file_edit');
  });
});

describe('command titles from the command itself', () => {
  it('says what known actions do, and falls back to the unwrapped command', () => {
    const cwd = '/r';
    expect(commandItemTitle("bash -lc 'cat /r/src/a.ts'", cwd)).toBe('Reading src/a.ts');
    expect(commandItemTitle('bash -lc "ls && rg foo src"', cwd)).toBe('Listing files, Searching for "foo" in src');
    expect(commandItemTitle("bash -lc 'cat a && make'", cwd)).toBe('cat a && make');
    expect(commandItemTitle(['/bin/bash', '-lc', 'echo hi && ls /nonexistent_dir'], cwd)).toBe('Listing /nonexistent_dir');
    expect(commandItemTitle('sed -n 1,20p /r/x.md | head -n 5', cwd)).toBe('Reading x.md');
    expect(commandItemTitle('echo hi', cwd)).toBe('echo hi');
    expect(commandItemTitle('cat $(ls)', cwd)).toBe('cat $(ls)');
    expect(commandItemTitle('', undefined)).toBe('Running a command');
  });

  it('Codex\'s own parse is still read into metadata (commandActions / parsed_cmd)', () => {
    const parsed = commandActions({ parsed_cmd: [{ type: 'list_files', cmd: 'ls', path: null }, { type: 'search', cmd: 'rg foo src', query: 'foo', path: 'src' }] });
    expect(parsed?.map((a) => a.type)).toEqual(['listFiles', 'search']);
  });
});

describe('rollout call outputs', () => {
  it('reads the 0.40 JSON shell output (exit code, duration)', () => {
    const o = readCallOutput(JSON.stringify({ output: 'x\n', metadata: { exit_code: 2, duration_seconds: 1.25 } }));
    expect(o).toMatchObject({ text: 'x\n', exitCode: 2, elapsedMs: 1250 });
  });

  it('reads the 0.163 header block', () => {
    const o = readCallOutput('Chunk ID: 7212cc\nWall time: 0.5000 seconds\nProcess exited with code 2\nOriginal token count: 17\nOutput:\nhi\nerr\n');
    expect(o).toMatchObject({ text: 'hi\nerr\n', exitCode: 2, elapsedMs: 500 });
    expect(readCallOutput('Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess.\n')).toMatchObject({ exitCode: 0, elapsedMs: 100, text: 'Success.\n' });
    expect(readCallOutput('Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 12\nOutput:\n...')).toMatchObject({ processSession: 12, text: '...' });
  });

  it('recognizes refusals, sandbox failures, MCP results and content items', () => {
    expect(readCallOutput('patch rejected by user').denied).toBe(true);
    expect(readCallOutput('failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: x')).toMatchObject({ success: false, exitCode: 2 });
    const mcp = readCallOutput(JSON.stringify({ content: [{ type: 'text', text: 'nope' }], isError: true }));
    expect(mcp).toMatchObject({ success: false, text: 'nope' });
    const items = readCallOutput([{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }]);
    expect(items.text).toBe('a');
    expect(items.output?.content).toEqual([{ type: 'image', mediaType: 'image/png', bytes: 3, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(items.truncated).toHaveLength(1);
    expect(readCallOutput({ content: 'bad', success: false })).toMatchObject({ text: 'bad', success: false });
    expect(readCallOutput('plain words')).toMatchObject({ text: 'plain words' });
  });
});

describe('MCP names and results', () => {
  it('splits mcp__server__tool and namespaced names', () => {
    expect(mcpRef('mcp__amalgm__browser_snapshot')).toEqual({ server: 'amalgm', tool: 'browser_snapshot' });
    expect(mcpRef('mcp__srv__tool__with__parts')).toEqual({ server: 'srv', tool: 'tool__with__parts' });
    expect(mcpRef('browser_navigate', 'mcp__amalgm')).toEqual({ server: 'amalgm', tool: 'browser_navigate' });
    expect(mcpRef('shell')).toBeUndefined();
    expect(mcpRef('mcp__x')).toBeUndefined();
    expect(callRef('mcp__amalgm__browser_navigate').name).toBe('browser_navigate');
    expect(callRef('not_a_known_tool').rule.kind).toBe('unknown');
  });

  it('keeps text, describes images without their data, keeps structured content in either casing', () => {
    const r = mcpResult({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: 'b' }, { type: 'resource_link', uri: 'file:///x', name: 'x' }], structured_content: { n: 1 } });
    expect(r.output).toEqual({ text: 'a\nb', content: [{ type: 'image', mediaType: 'image/png', bytes: 3, sha256: expect.any(String) }, { type: 'resource', uri: 'file:///x' }], structured: { n: 1 } });
    expect(r.truncated).toEqual([{ path: '/output/content/0', originalBytes: 4, reason: expect.stringContaining('base64') }]);
    expect(JSON.stringify(r.output)).not.toContain('AAAA');
  });
});

describe('field access across casings', () => {
  it('reads camelCase, snake_case and Rust durations', () => {
    expect(get({ aggregated_output: 'x' }, 'aggregatedOutput')).toBe('x');
    expect(get({ aggregatedOutput: null, aggregated_output: 'y' }, 'aggregatedOutput')).toBe('y');
    expect(camel('CommandExecution')).toBe('commandExecution');
    expect(camel('collab_tool_call')).toBe('collabToolCall');
    expect(statusOf({ status: 'in_progress' })).toBe('inProgress');
    expect(statusOf({ status: 'weird' })).toBe('other');
    expect(durationMsOf({ duration: { secs: 1, nanos: 500000000 } })).toBe(1500);
    expect(durationMsOf({ durationMs: 12 })).toBe(12);
    expect(pathOf('file:///home/u/my%20dir')).toBe('/home/u/my dir');
  });
});

describe('recorder envelopes and sniffing', () => {
  it('unwraps {dir,msg} and other envelopes, with direction when given', () => {
    expect(rpcOf({ dir: 'out', msg: { id: 0, result: { decision: 'accept' } } })).toEqual({ msg: { id: 0, result: { decision: 'accept' } }, dir: 'out' });
    expect(rpcOf({ direction: 'incoming', message: JSON.stringify({ method: 'item/started', params: {} }) })).toEqual({ msg: { method: 'item/started', params: {} }, dir: 'in' });
    expect(rpcOf({ method: 'turn/started' })).toEqual({ msg: { method: 'turn/started' } });
    expect(rpcOf({ type: 'assistant', message: { id: 'msg_1', role: 'assistant' } })).toBeUndefined();
  });

  it('is sure on exec, app-server and rollout lines, and says 0 for ACP and others', () => {
    expect(sniffLines(['{"type":"thread.started","thread_id":"t"}'])).toBe(0.9);
    expect(sniffLines(['{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}'])).toBe(0.9);
    expect(sniffLines(['{"dir":"out","msg":{"method":"initialize","id":0,"params":{"clientInfo":{"name":"x"}}}}'])).toBe(0.9);
    expect(sniffLines(['{"method":"item/started","params":{"item":{"type":"reasoning","id":"r"}}}'])).toBe(0.9);
    expect(sniffLines(['{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}'])).toBe(0);
    expect(sniffLines(['{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}'])).toBe(0);
    expect(sniffLines(['{"type":"error","message":"x","sessionID":"s"}'])).toBe(0);
    expect(sniffLines(['{"type":"tool.started","partId":"p","source":{"provider":"executor"}}'])).toBe(0);
    expect(sniffLines(['not json'])).toBe(0);
    expect(codexAdapter.sniff({ lines: ['{"type":"turn.started"}'] })).toBe(0.9);
  });
});

describe('lines that cannot carry tool data are not parsed', () => {
  it('skips reasoning, messages and token counts, but still reports a truncated one', async () => {
    const { carriesNoToolData } = await import('../../src/adapters/codex/sniff.js');
    const reasoning = '{"timestamp":"2025-09-25T01:22:25.361Z","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}}';
    expect(carriesNoToolData(reasoning)).toBe(true);
    expect(carriesNoToolData('{"timestamp":"t","ordinal":3,"type":"event_msg","payload":{"type":"token_count","info":null}}')).toBe(true);
    expect(carriesNoToolData('{"method":"item/agentMessage/delta","params":{"delta":"hi"}}')).toBe(true);
    expect(carriesNoToolData('{"dir": "in", "msg": {"method": "item/reasoning/summaryTextDelta", "params": {}}}')).toBe(true);
    expect(carriesNoToolData('{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"x"}}')).toBe(true);
    expect(carriesNoToolData('{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell"}}')).toBe(false);
    expect(carriesNoToolData('{"type":"item.completed","item":{"id":"item_1","type":"command_execution"}}')).toBe(false);
    const truncated = reasoning.slice(0, -10);
    expect(carriesNoToolData(truncated)).toBe(false);
    const r = collect(codexAdapter, `${reasoning}\n${truncated}\n`);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['malformed_line']);
  });
});

describe('proposedPlan (a plan item\'s markdown)', () => {
  it('list items are pending entries; text with no list is one entry; blank text is no plan', () => {
    expect(proposedPlan('# Plan\n\n1. Read the code\n2) Fix it\n- [ ] Test it\n* ship\nnot an item')).toEqual({
      entries: ['Read the code', 'Fix it', 'Test it', 'ship'].map((content) => ({ content, status: 'pending' })),
    });
    expect(proposedPlan('Just refactor the parser.')).toEqual({ entries: [{ content: 'Just refactor the parser.', status: 'pending' }] });
    expect(proposedPlan('  \n')).toBeUndefined();
  });
});
