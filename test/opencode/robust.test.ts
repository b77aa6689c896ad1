// The adapter never throws and never emits an event that breaks the contract, whatever it is fed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { busEvent, completed, partUpdated, sse, toolPart } from '../helpers/opencode-lines.js';

const STATUSES = ['pending', 'running', 'completed', 'error', 'weird'];
const TOOLS = ['bash', 'read', 'task', 'invalid', 'apply_patch', 'amalgm_browser_tabs_new', 'demo_echo', 'custom', 'webfetch', 'question'];

const state = fc.record(
  {
    status: fc.constantFrom(...STATUSES),
    input: fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom('command', 'description', 'filePath', 'url', 'tool', 'error', 'patchText', 'todos', 'questions', 'description'), fc.anything())),
    output: fc.oneof(fc.string(), fc.anything()),
    error: fc.oneof(fc.string(), fc.anything()),
    title: fc.oneof(fc.string(), fc.anything()),
    metadata: fc.oneof(fc.anything(), fc.record({ output: fc.string(), exit: fc.oneof(fc.constant(null), fc.integer()), sessionId: fc.string(), interrupted: fc.boolean(), actionDescriptor: fc.anything() }, { requiredKeys: [] })),
    time: fc.oneof(fc.anything(), fc.record({ start: fc.integer(), end: fc.integer(), compacted: fc.integer() }, { requiredKeys: [] })),
    attachments: fc.anything(),
  },
  { requiredKeys: ['status'] },
);

const part = fc.record({
  id: fc.constantFrom('prt_a', 'prt_b', 'prt_c', ''),
  tool: fc.oneof(fc.constantFrom(...TOOLS), fc.anything()),
  callID: fc.oneof(fc.constant('call_1'), fc.anything()),
  sessionID: fc.oneof(fc.constantFrom('ses_aaaaaaaaaaaa00000000000001', 'ses_bbbbbbbbbbbb00000000000002'), fc.anything()),
  messageID: fc.constant('msg_1'),
  type: fc.constantFrom('tool', 'tool', 'text', 'weird'),
  state: fc.oneof(state, fc.anything()),
});

function check(text: string): void {
  const r = collect(opencodeAdapter, [{ name: 'fuzz.sse', text }]);
  expect(r.diagnostics.filter((d) => d.code === 'invalid_event' || d.code === 'adapter_error')).toEqual([]);
  for (const p of r.parts) expect(p.title.trim()).not.toBe('');
}

describe('robustness', () => {
  it('random tool parts through /event never throw and only give valid events', () => {
    fc.assert(fc.property(fc.array(part, { maxLength: 8 }), (parts) => check(sse(parts.map((p) => partUpdated(p as Record<string, unknown>))))), { numRuns: 300 });
  });

  it('random run lines, exports and bus events never throw', () => {
    const anyLine = fc.oneof(
      part.map((p) => JSON.stringify({ type: 'tool_use', timestamp: 1, sessionID: 'ses_x', part: p })),
      fc.array(part, { maxLength: 4 }).map((ps) => JSON.stringify({ info: { id: 'ses_x', parentID: 'ses_y' }, messages: [{ info: {}, parts: ps }] })),
      fc.anything().map((props) => `data: ${JSON.stringify(busEvent('permission.asked', { tool: { messageID: 'msg_1', callID: 'call_1' }, props }))}`),
      fc.anything().map((v) => JSON.stringify(v) ?? 'null'),
      fc.string(),
    );
    fc.assert(fc.property(fc.array(anyLine, { maxLength: 8 }), (lines) => check(lines.join('\n'))), { numRuns: 300 });
  });

  it('a recording cut at any byte still normalizes', () => {
    const text = sse([
      partUpdated(toolPart('prt_1', 'bash', { status: 'pending', input: {}, raw: '' })),
      partUpdated(toolPart('prt_1', 'bash', completed({ command: 'ls' }, 'a\nb'))),
      partUpdated(toolPart('prt_2', 'task', completed({ description: 'Do it' }, 'ok', { metadata: { sessionId: 'ses_child' } }))),
    ]);
    fc.assert(fc.property(fc.integer({ min: 0, max: text.length }), (cut) => check(text.slice(0, cut))), { numRuns: 200 });
  });
});
