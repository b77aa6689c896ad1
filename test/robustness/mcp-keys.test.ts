// MCP tool names come from the provider: one that is also a member of every object (`constructor`,
// `toString`) must be titled like any unknown tool, not run Object's member as its title rule (which
// made `t.trim is not a function` and an adapter_error for the whole line). The table has no prototype (ownKeysOnly); this pins it.
import { describe, expect, it } from 'vitest';
import { mcpTitle } from '../../src/adapters/shared/mcp.js';

describe('MCP title rules are looked up as own keys', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])('a tool named %s gets the fallback title', (tool) => {
    expect(mcpTitle('srv', tool, { q: 1 })).toMatch(/ \(srv\)$/);
  });

  it('a built-in rule is still found', () => {
    expect(mcpTitle('playwright', 'browser_snapshot', {})).toBe('Reading browser page');
  });
});
