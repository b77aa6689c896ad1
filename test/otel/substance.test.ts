// OTel attributes from typed substance (test/helpers/substance.ts: hand-built events through the
// real reducer): the exit code of metadata.command and the approval's state.
import { describe, expect, it } from 'vitest';
import { toolSpanOf } from '../../src/otel/span.js';
import { substanceParts } from '../helpers/substance.js';

describe('OTel tool spans of typed substance', () => {
  const spans = new Map(substanceParts().map((p) => [p.id, toolSpanOf(p, 's1')]));
  const attrs = (id: string) => (spans.get(id) as { attributes: Record<string, unknown> }).attributes;

  it('process.exit.code comes from metadata.command; a call without one has none (control)', () => {
    expect(attrs('b1')['process.exit.code']).toBe(0);
    expect(attrs('e1')).not.toHaveProperty('process.exit.code');
  });

  it('toolnorm.approval.state is the approval\'s state, on the calls that had one', () => {
    expect(attrs('a3')['toolnorm.approval.state']).toBe('approved');
    expect(attrs('a2')['toolnorm.approval.state']).toBe('denied');
    expect(attrs('b1')).not.toHaveProperty('toolnorm.approval.state');
  });
});
