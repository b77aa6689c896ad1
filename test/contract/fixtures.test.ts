import { describe, expect, it } from 'vitest';
import { validators, ENTRY_POINTS, type EntryPoint } from '../../src/contract/index.js';
import { listSchemaFixtures } from '../helpers/schema-fixtures.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const fixtures = listSchemaFixtures(REPO_ROOT);

describe('schema fixtures (fixtures/schema/<Def>/{valid,invalid})', () => {
  it('has at least 40 fixtures, each for an entry-point definition', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(40);
    for (const f of fixtures) expect(ENTRY_POINTS as readonly string[], f.file).toContain(f.definition);
  });

  it('every invalid fixture names the keyword and instancePath it breaks', () => {
    for (const f of fixtures.filter((x) => !x.expectValid)) {
      expect(f.expect, `${f.file} needs a sibling .expect.json`).toBeDefined();
      expect(typeof f.expect!.keyword).toBe('string');
      expect(typeof f.expect!.instancePath).toBe('string');
      expect(f.expect!.rule.length).toBeGreaterThan(0);
    }
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s', (_file, f) => {
    const validate = validators[f.definition as EntryPoint];
    const ok = validate(f.value);
    expect(ok, JSON.stringify(validate.errors)).toBe(f.expectValid);
    if (!f.expectValid) {
      const hits = (validate.errors ?? []).map((e) => `${e.keyword} ${e.instancePath}`);
      expect(hits).toContain(`${f.expect!.keyword} ${f.expect!.instancePath}`);
    }
  });

  it('covers every kind and every state, the output/error rules, a missing id, an unknown kind, a bad ToolEvent discriminator and an ACP custom root field', () => {
    const parts = fixtures.filter((f) => f.definition === 'NormalizedToolPart' && f.expectValid).map((f) => f.value as { kind: string; state: string });
    for (const k of ['web_search', 'browser', 'file_read', 'file_write', 'file_edit', 'bash', 'subagent', 'mcp', 'question', 'todo', 'unknown']) expect(parts.map((p) => p.kind)).toContain(k);
    for (const s of ['started', 'running', 'complete', 'error']) expect(parts.map((p) => p.state)).toContain(s);
    const rules = fixtures.filter((f) => f.expect).map((f) => `${f.definition}: ${f.expect!.rule}`);
    for (const needle of ['output only when state is complete', 'error always when state is error', 'error only when state is error', 'id is required', 'kind is one of the seed enum']) {
      expect(rules.some((r) => r.includes(needle)), needle).toBe(true);
    }
    expect(rules).toContain('ToolEvent: type must be a known event type');
    expect(rules.some((r) => r.startsWith('AcpSessionUpdateParams: no custom fields at the root'))).toBe(true);
  });
});
