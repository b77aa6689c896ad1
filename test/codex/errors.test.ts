// The Codex error table (src/adapters/codex/errors.ts): every row is matched by a line the real
// binary wrote (fixtures/codex/capture-0171/*.jsonl, recorded from codex-cli 0.171.0; see
// fixtures/codex/SOURCES.md), and the call of that line comes out as an error with the row's code,
// in the rollout of an exec run and of an app-server run alike.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { exitCodeOf, FAILURES, OUTPUT_ERRORS, outputError } from '../../src/adapters/codex/errors.js';
import { readCallOutput } from '../../src/adapters/codex/output.js';
import { collect } from '../../src/pipeline/collect.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { FIXTURES } from '../helpers/golden-cases.js';
import { scanCodex } from '../helpers/scan-codex.js';

const DIR = join(FIXTURES, 'codex', 'capture-0171');
const RECORDED = readdirSync(DIR).filter((f) => /-0171-.*\.jsonl$/.test(f)).sort();

interface Seen {
  file: string;
  line: number;
  callId: string;
  text: string;
}

/** Every plain-text call output in the recorded rollouts. */
function recordedOutputs(): Seen[] {
  const out: Seen[] = [];
  for (const file of RECORDED.filter((f) => f.startsWith('rollout-'))) {
    readFileSync(join(DIR, file), 'utf8').split('\n').forEach((l, i) => {
      if (!l.trim()) return;
      const o = JSON.parse(l) as { type?: string; payload?: { type?: string; call_id?: string; output?: unknown } };
      const p = o.payload;
      if (o.type !== 'response_item' || (p?.type !== 'function_call_output' && p?.type !== 'custom_tool_call_output')) return;
      if (typeof p.output === 'string' && p.call_id) out.push({ file, line: i + 1, callId: p.call_id, text: p.output });
    });
  }
  return out;
}

type Part = { id: string; state: string; error?: { code?: string; message: string } };
const partsOf = (file: string) => collect(codexAdapter, [{ name: file, text: readFileSync(join(DIR, file), 'utf8') }]).parts as Part[];

describe('codex error table', () => {
  const outputs = recordedOutputs();

  it('the recorded 0.171 files are present (exec, app-server and the rollout of each)', () => {
    expect(RECORDED).toEqual(['appserver-0171-errors.jsonl', 'exec-0171-errors.jsonl', 'rollout-0171-appserver-errors.jsonl', 'rollout-0171-exec-errors.jsonl']);
  });

  it.each(OUTPUT_ERRORS.map((row, i) => ({ i, row })))('row $i ($row.code) is matched by a recorded line, whose call fails with that code', ({ row }) => {
    const hits = outputs.filter((o) => outputError(o.text) === row);
    expect(hits.length, `no recorded output matches ${row.pattern}`).toBeGreaterThan(0);
    for (const hit of hits) {
      const part = partsOf(hit.file).find((p) => p.id === hit.callId);
      expect(part, `${hit.file}:${hit.line}`).toBeDefined();
      // The message is the output text, unless an event record of the call ended it first.
      expect({ at: `${hit.file}:${hit.line}`, state: part!.state, code: part!.error?.code }).toEqual({ at: `${hit.file}:${hit.line}`, state: 'error', code: row.code });
      expect(part!.error!.message).toBeTruthy();
    }
  });

  it('the named recorded calls fail with the code the rule gives, in both rollouts', () => {
    const expected: Record<string, string | undefined> = {
      call_cat: 'exit_nonzero',
      call_verify: 'tool_error',
      call_unknown: 'unknown_tool',
      call_mcp_fail: 'tool_error',
      call_ls: 'exit_nonzero',
      call_outside: 'denied',
      call_escalate: 'denied',
      call_search: undefined,
      call_mcp_echo: undefined,
    };
    for (const file of ['rollout-0171-exec-errors.jsonl', 'rollout-0171-appserver-errors.jsonl']) {
      const got = Object.fromEntries(partsOf(file).map((p) => [p.id, p.error?.code]));
      expect(got, file).toEqual(expected);
    }
  });

  it('a command output is never read by the table: only Codex\'s own answer is', () => {
    // A shell whose output happens to start with a table wording, inside the header block or the
    // 0.40 JSON envelope, is judged by its exit code.
    expect(readCallOutput('Process exited with code 0\nOutput:\nunsupported call: x\n').failure).toBeUndefined();
    expect(readCallOutput(JSON.stringify({ output: 'unsupported call: x', metadata: { exit_code: 0 } })).failure).toBeUndefined();
    expect(readCallOutput('unsupported call: x').failure).toBe('unknown_tool');
  });

  it.each(RECORDED)('%s: the error parts are exactly the calls the raw file reports as failed (independent scan)', (file) => {
    const raw = scanCodex(readFileSync(join(DIR, file), 'utf8'));
    const parts = partsOf(file);
    expect(new Set(parts.map((p) => p.id))).toEqual(raw.tools);
    expect(new Set(parts.filter((p) => p.state === 'error').map((p) => p.id))).toEqual(raw.failed);
  });

  it('the failing calls, by id', () => {
    const failing = (file: string) => partsOf(file).filter((p) => p.state === 'error').map((p) => `${p.id}:${p.error?.code}`);
    expect(failing('exec-0171-errors.jsonl')).toEqual(['item_0:exit_nonzero', 'item_1:tool_error', 'item_3:exit_nonzero']);
    expect(failing('appserver-0171-errors.jsonl')).toEqual(['call_cat:exit_nonzero', 'call_outside:denied', 'call_escalate:denied', 'call_mcp_fail:tool_error', 'call_ls:exit_nonzero']);
    const rollout = ['call_cat:exit_nonzero', 'call_verify:tool_error', 'call_outside:denied', 'call_escalate:denied', 'call_unknown:unknown_tool', 'call_mcp_fail:tool_error', 'call_ls:exit_nonzero'];
    expect(failing('rollout-0171-exec-errors.jsonl')).toEqual(rollout);
    expect(failing('rollout-0171-appserver-errors.jsonl')).toEqual(rollout);
  });
});

describe('codex failure situations (FAILURES)', () => {
  it('give each situation its code and message', () => {
    expect(FAILURES.denied('Running ls', false)).toEqual({ message: 'Running ls: declined by the user', code: 'denied' });
    expect(FAILURES.denied('Running ls', true)).toEqual({ message: 'Running ls: cancelled by the user', code: 'denied' });
    expect(FAILURES.rejected(undefined)).toEqual({ message: 'Rejected by the user', code: 'denied' });
    expect(FAILURES.interrupted('t')).toEqual({ message: 't: interrupted before it finished', code: 'interrupted' });
    expect(FAILURES.turnEnded('t', 'the turn was aborted (x)')).toEqual({ message: 't: the turn was aborted (x)', code: 'interrupted' });
    expect(FAILURES.turnInterrupted('t')).toEqual({ message: 't: the turn was interrupted', code: 'interrupted' });
    expect(FAILURES.turnFailed('t', 'quota')).toEqual({ message: 't: stopped because the turn failed (quota)', code: 'interrupted' });
    expect(FAILURES.turnFailed('t', undefined)).toEqual({ message: 't: stopped because the turn failed', code: 'interrupted' });
    expect(FAILURES.exit(2, '\nno such file\n')).toEqual({ message: 'Exit code 2\nno such file', code: 'exit_nonzero' });
    expect(FAILURES.failed('t')).toEqual({ message: 't: failed', code: 'tool_error' });
    expect(FAILURES.toolError('boom', { type: 'x' })).toEqual({ message: 'boom', code: 'tool_error', details: { type: 'x' } });
    expect(Object.keys(FAILURES.toolError('boom'))).toEqual(['message', 'code']);
    expect(FAILURES.unanswered('the client did not answer')).toEqual({ message: 'the client did not answer', code: 'cancelled' });
    expect([exitCodeOf(124, 'command timed out'), exitCodeOf(124, 'other'), exitCodeOf(1, 'timed out')]).toEqual(['timeout', 'exit_nonzero', 'exit_nonzero']);
  });

  it('are the only place in the Codex adapter that writes an error code', () => {
    const dir = join(REPO_ROOT, 'src', 'adapters', 'codex');
    const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts') && f !== 'errors.ts');
    const sites = files.flatMap((f) => (readFileSync(join(dir, f), 'utf8').match(/\bcode(?: = |: )'[a-z_]+'/g) ?? []).map((m) => `${f}: ${m}`));
    expect(files.length).toBeGreaterThan(15);
    expect(sites).toEqual([]);
  });
});
