// Kinds from the tool name, for calls the provider's table has no row for (missing tools, custom
// tools): the attempted name decides; a name whose words say nothing stays `unknown`.
import { describe, expect, it } from 'vitest';
import { kindFromName, nameWords } from '../../src/adapters/shared/kinds.js';
import { identify } from '../../src/adapters/claude/tools.js';
import { callRef, callView } from '../../src/adapters/codex/tools.js';

describe('kindFromName', () => {
  it('splits names the way providers write them', () => {
    expect(nameWords('MultiEdit')).toEqual(['multi', 'edit']);
    expect(nameWords('web_fetch')).toEqual(['web', 'fetch']);
    expect(nameWords('list-files')).toEqual(['list', 'files']);
  });

  it.each([
    ['list', 'file_read'], ['read_file', 'file_read'], ['Glob', 'file_read'], ['codesearch', 'file_read'],
    ['patch', 'file_edit'], ['MultiEdit', 'file_edit'], ['str_replace_editor', 'file_edit'],
    ['write', 'file_write'], ['create_file', 'file_write'],
    ['question', 'question'], ['AskUser', 'question'],
    ['todoread', 'todo'], ['update_plan', 'todo'],
    ['browse_web', 'web_search'], ['WebFetch', 'web_search'],
    ['shell', 'bash'], ['run_command', 'bash'],
    ['Agent', 'subagent'], ['batch', 'subagent'],
    ['no_such_tool', 'unknown'], ['frobnicate', 'unknown'],
  ])('%s → %s', (name, kind) => {
    expect(kindFromName(name)).toBe(kind);
  });

  it('Claude and Codex name calls to tools they have no row for by the attempted name', () => {
    expect(identify('ListFiles', {}, {}).kind).toBe('file_read');
    expect(identify('frobnicate', {}, {}).kind).toBe('unknown');
    expect(callView(callRef('read_many_files'), {}, {}, 'function_call').kind).toBe('file_read');
    expect(callView(callRef('no_such_tool'), {}, {}, 'function_call').kind).toBe('unknown');
  });
});
