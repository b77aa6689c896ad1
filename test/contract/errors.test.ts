// ContractError lists every problem of a value, and a bad discriminator tag names its allowed values.
// On a validator generated with `allErrors: false` the second case reports one issue, not three, and
// ajv's discriminator message is `value of tag "state" must be in oneOf`.
import { describe, expect, it } from 'vitest';
import * as contract from '../../src/contract/index.js';
import { validators } from '../../generated/index.js';

const part = {
  id: 'toolu_1', name: 'Bash', kind: 'bash', title: 'ls', input: { command: 'ls' },
  timing: { startedAt: 1, completedAt: 2 }, metadata: { provider: 'claude', rawType: 'tool_use:Bash' },
  state: 'complete', output: { text: 'x' },
};

function errorOf(f: () => unknown): contract.ContractError {
  try {
    f();
  } catch (err) {
    if (err instanceof contract.ContractError) return err;
    throw err;
  }
  throw new Error('no ContractError was thrown');
}

describe('ContractError', () => {
  it('the control: the part is valid as it stands', () => {
    expect(contract.issuesOfNormalizedToolPart(part)).toEqual([]);
  });

  it('lists every issue, not only the first', () => {
    const err = errorOf(() => contract.assertNormalizedToolPart({ ...part, id: 5, title: '', extra: 1 }));
    expect(err.issues.map((i) => `${i.instancePath} ${i.keyword}`).sort()).toEqual([' additionalProperties', '/id type', '/title minLength']);
    expect(err.message.split('\n')).toEqual([
      'value is not a valid NormalizedToolPart:',
      '  (root): must NOT have additional properties: "extra" [additionalProperties]',
      '  /id: must be string [type]',
      '  /title: must NOT have fewer than 1 characters [minLength]',
    ]);
  });

  it('a bad state names the four states, in the message and as params.allowedValues', () => {
    const err = errorOf(() => contract.assertNormalizedToolPart({ ...part, state: 'done' }));
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]!.params).toMatchObject({ tag: 'state', tagValue: 'done', allowedValues: ['started', 'running', 'complete', 'error'] });
    expect(err.message).toMatch(/value of tag "state" must be one of: started, running, complete, error \[discriminator\]/);
    expect(err.message).not.toMatch(/in oneOf/);
  });

  it('every discriminator names its values (a ToolEvent type, an ACP content block)', () => {
    const ev = errorOf(() => contract.assertToolEvent({ type: 'tool.begun' }));
    expect(ev.message).toMatch(/value of tag "type" must be one of: tool\.started, tool\.input\.delta, .*tool\.policy\.assessed/);
    // The generated code itself carries no ajv "in oneOf" message.
    const code = Object.values(validators).map((v) => String(v)).join('\n');
    expect(code).not.toMatch(/must be in oneOf/);
  });
});
