// EXEC_COMMAND cases from the attack run, and the families around them: every row gives the
// command, the rules, the decision and the reason. The rules match the parsed command (argv,
// argv[0] by basename or resolved path); whenever a list is set, what a rule cannot judge is
// denied, and so is a redirection outside the roots.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLE_GATES, resolvePolicy, type PolicyInput } from '../../src/executor/index.js';
import { tempDir } from '../helpers/executor.js';

const ws = tempDir();
mkdirSync(join(ws, 'sub'));
const CAT = realpathSync('/bin/cat');

async function gate(command: string, policy: PolicyInput) {
  return ROLE_GATES.EXEC_COMMAND(command, { base: { cwd: ws, home: ws }, policy: await resolvePolicy(policy, ws), access: 'write' });
}

const ALLOW_LS: PolicyInput = { commands: { allow: ['ls *', 'ls', 'npm *', 'git status', 'echo *', 'cat *'] } };
const DENY_CAT: PolicyInput = { commands: { deny: ['cat *'] } };

type Row = [command: string, policy: PolicyInput, decision: 'allow' | 'deny', reason: RegExp];
const ROWS: Row[] = [
  // An allow rule `ls *` must not admit a redirection out of the roots.
  ['ls > /outside/f', ALLOW_LS, 'deny', /the redirection > \/outside\/f: \/outside\/f is outside the writable roots/],
  ['ls >> /etc/passwd', ALLOW_LS, 'deny', /redirection >> \/etc\/passwd: .*outside the writable roots/],
  ['ls &> /outside/f', ALLOW_LS, 'deny', /redirection > \/outside\/f/],
  ['ls 2> ../escape.log', ALLOW_LS, 'deny', /redirection > \.\.\/escape\.log: .*outside the writable roots/],
  ['cat < /etc/shadow', ALLOW_LS, 'deny', /redirection < \/etc\/shadow: .*outside the readable roots/],
  ['ls > ~other/f', ALLOW_LS, 'deny', /"~other\/f" is expanded by bash/],
  ['ls > out*', ALLOW_LS, 'deny', /"out\*" is expanded by bash/],
  ['ls > "$F"', ALLOW_LS, 'deny', /redirection target "\\"\$F\\"" uses a variable expansion/],
  ['cd /tmp && ls > f', ALLOW_LS, 'deny', /changes directory and redirects to a file/],
  ['ls > sub/listing.txt', ALLOW_LS, 'allow', /"ls" by "ls"/],
  ['ls 2>/dev/null', ALLOW_LS, 'allow', /"ls" by "ls"/],
  ['ls 2>&1 | cat -n', ALLOW_LS, 'allow', /"ls" by "ls"; "cat -n" by "cat \*"/],
  ['ls | cat', ALLOW_LS, 'deny', /"cat" matches no allow rule/],
  // A deny rule `cat *` must hold against paths, quoting and wrappers.
  ['cat secret', DENY_CAT, 'deny', /"cat secret" matches the deny rule "cat \*"/],
  ['/bin/cat secret', DENY_CAT, 'deny', /"cat secret" matches the deny rule "cat \*"/],
  ['/usr/bin/cat secret', DENY_CAT, 'deny', /"cat secret" matches the deny rule/],
  ["c''at secret", DENY_CAT, 'deny', /"cat secret" matches the deny rule/],
  ['c"a"t secret', DENY_CAT, 'deny', /"cat secret" matches the deny rule/],
  ['\\cat secret', DENY_CAT, 'deny', /"cat secret" matches the deny rule/],
  ['xargs cat < list', DENY_CAT, 'deny', /"xargs" runs a command given in its arguments/],
  ['echo secret | xargs cat', DENY_CAT, 'deny', /"xargs" runs a command/],
  ['env cat secret', DENY_CAT, 'deny', /"env" runs a command/],
  ["sh -c 'cat secret'", DENY_CAT, 'deny', /"sh" runs a command/],
  ["bash -c 'cat secret'", DENY_CAT, 'deny', /"bash" runs a command/],
  ['/bin/sh -c x', DENY_CAT, 'deny', /"\/bin\/sh" runs a command/],
  ['nohup cat secret', DENY_CAT, 'deny', /"nohup" runs a command/],
  ['sudo cat secret', DENY_CAT, 'deny', /"sudo" runs a command/],
  ["eval 'cat secret'", DENY_CAT, 'deny', /"eval" runs a command/],
  ['find . -exec cat {} ;', DENY_CAT, 'deny', /"find" with "-exec" runs another command/],
  ["git -c core.pager=cat log", DENY_CAT, 'deny', /"git" with "-c" runs another command/],
  ['$(echo cat) secret', DENY_CAT, 'deny', /command substitution/],
  ['`echo cat` secret', DENY_CAT, 'deny', /command substitution \(backticks\)/],
  ['$CMD secret', DENY_CAT, 'deny', /the command name "\$CMD" uses a variable expansion/],
  ["$'\\x63at' secret", DENY_CAT, 'deny', /ANSI-C quoting/],
  ['c?t secret', DENY_CAT, 'deny', /the command name "c\?t" is a glob pattern/],
  ['PATH=/tmp/evil ls', DENY_CAT, 'deny', /the assignment "PATH=…" changes what commands run/],
  ['LD_PRELOAD=/x.so ls', DENY_CAT, 'deny', /"LD_PRELOAD=…" changes what commands run/],
  ['cat <<EOF\nsecret\nEOF', DENY_CAT, 'deny', /"cat <<EOF secret EOF" matches the deny rule/],
  ['ls <<EOF\n$(rm -rf ~)\nEOF', DENY_CAT, 'deny', /here-document/],
  ['diff <(cat a) b', DENY_CAT, 'deny', /process substitution/],
  ['for f in a b; do cat $f; done', DENY_CAT, 'deny', /a for loop/],
  ['f() { cat x; }; f', DENY_CAT, 'deny', /function definition/],
  ['echo "unterminated', DENY_CAT, 'deny', /cannot be parsed/],
  ['ls -la', DENY_CAT, 'allow', /no command allow list is set, no deny rule matches/],
  ['(ls; echo done)', DENY_CAT, 'allow', /no deny rule matches/],
  ['if true; then ls; fi', DENY_CAT, 'allow', /no deny rule matches/],
  ['if true; then cat x; fi', DENY_CAT, 'deny', /"cat x" matches the deny rule/],
  ['echo $HOME', DENY_CAT, 'allow', /no deny rule matches/],
  // Allow lists: argv[0] by basename only when it runs the same program as the bare name.
  ['npm test && git status', ALLOW_LS, 'allow', /"npm test" by "npm \*"; "git status" by "git status"/],
  ['npm test && git push', ALLOW_LS, 'deny', /"git push" matches no allow rule/],
  ['/bin/ls -la', ALLOW_LS, 'allow', /by "ls \*"/],
  ['./ls -la', ALLOW_LS, 'deny', /"\.\/ls -la" matches no allow rule/],
  [`${CAT} x`, { commands: { allow: [`${CAT} *`] } }, 'allow', /by ".*cat \*"/],
  ['cat x', { commands: { allow: [`${CAT} *`] } }, 'allow', new RegExp(`"${CAT} x" by "${CAT} \\*"`)],
  ['npm run $(cat evil)', ALLOW_LS, 'deny', /command substitution/],
  ['ls; rm -rf /', ALLOW_LS, 'deny', /"rm -rf \/" matches no allow rule/],
  ['ls\nrm -rf /', ALLOW_LS, 'deny', /"rm -rf \/" matches no allow rule/],
  ['xargs ls', ALLOW_LS, 'deny', /"xargs" runs a command/],
  ['echo ok', {}, 'allow', /no command allow list is set and no deny rule matches/],
];

describe('EXEC_COMMAND: parsed rules (decision and reason)', () => {
  it.each(ROWS)('%j → %s', async (command, policy, decision, reason) => {
    const out = await gate(command, policy);
    expect(out.reason).toMatch(reason);
    expect(out.decision).toBe(decision);
  });

  it('with no list set, nothing is parsed and nothing is denied but an empty line', async () => {
    expect((await gate("c''at $(whoami) > /outside/f", {})).decision).toBe('allow');
    expect((await gate('  ', {})).reason).toBe('the command is empty');
  });

  it('a privileged session may redirect outside the roots (the path gate\'s rule), other checks stand', async () => {
    expect((await gate('ls > /outside/f', { ...ALLOW_LS, maxTier: 'privileged' })).decision).toBe('allow');
    expect((await gate('xargs ls', { ...ALLOW_LS, maxTier: 'privileged' })).decision).toBe('deny');
  });
});
