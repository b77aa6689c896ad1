// The command parser behind command titles (src/adapters/shared/command-parse.ts).
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/adapters/shared/command-parse.js';

describe('parseCommand', () => {
  it.each([
    ['cat /nonexistent/file.txt', [{ type: 'read', path: '/nonexistent/file.txt' }]],
    ['echo hi && ls /nonexistent_dir', [{ type: 'listFiles', path: '/nonexistent_dir' }]],
    ['ls -la', [{ type: 'listFiles' }]],
    ['cd src && rg -n "foo bar" lib | head -n 5', [{ type: 'search', query: 'foo bar', path: 'lib' }]],
    ['grep -e x -r src', [{ type: 'search', query: 'x', path: 'src' }]],
    ['git grep TODO', [{ type: 'search', query: 'TODO' }]],
    ['sed -n 1,20p a.md', [{ type: 'read', path: 'a.md' }]],
    ['head -n 5 a.md; tail -n 2 b.md', [{ type: 'read', path: 'a.md' }, { type: 'read', path: 'b.md' }]],
    ['cat "my file.txt"', [{ type: 'read', path: 'my file.txt' }]],
    ['cat a b', [{ type: 'unknown' }]],
    ['make test', [{ type: 'unknown' }]],
    ['/usr/bin/cat x', [{ type: 'read', path: 'x' }]],
    ['echo hi', []],
  ])('%s', (script, actions) => {
    expect(parseCommand(script)).toEqual(actions);
  });

  it.each(['cat $(ls)', 'cat a > b', 'cat <<EOF\nx\nEOF', 'sleep 1 &', "cat 'unclosed", 'ls `pwd`'])('does not read %j', (script) => {
    expect(parseCommand(script)).toBeUndefined();
  });
});
