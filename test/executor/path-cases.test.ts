// The path policy, case by case: each row names the tool and input, and shows the resolved path
// and decision the gates must reach. Runs against a real directory tree with real symlinks.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuesOfToolCallAssessmentRecord, type Tier } from '../../src/contract/index.js';
import { assess, builtinTools, resolvePolicy, type Tool } from '../../src/executor/index.js';
import { tempDir } from '../helpers/executor.js';

const base = tempDir();
const ws = join(base, 'ws');
const ro = join(base, 'ro');
const outside = join(base, 'outside');
const home = join(ws, 'homedir');
for (const d of [ws, ro, outside, home, join(ws, 'sub'), join(ws, 'ü')]) mkdirSync(d, { recursive: true });
writeFileSync(join(ws, 'a.txt'), 'a\n');
writeFileSync(join(ws, 'sub', 'b.txt'), 'b\n');
writeFileSync(join(ro, 'r.txt'), 'r\n');
writeFileSync(join(outside, 'secret.txt'), 'secret\n');
writeFileSync(join(home, 'notes.txt'), 'notes\n');
symlinkSync(outside, join(ws, 'link-out'));
symlinkSync(join(outside, 'new.txt'), join(ws, 'dangling'));
symlinkSync(join(ws, 'sub'), join(ws, 'link-in'));
symlinkSync('../outside/secret.txt', join(ws, 'rel-link-out'));
symlinkSync(join(ws, 'loop2'), join(ws, 'loop1'));
symlinkSync(join(ws, 'loop1'), join(ws, 'loop2'));

const tools = Object.fromEntries(builtinTools().map((t) => [t.name, t])) as Record<string, Tool>;
const fill = (s: string) => s.replace(/\{ws\}/g, ws).replace(/\{ro\}/g, ro).replace(/\{base\}/g, base).replace(/\{outside\}/g, outside).replace(/\{home\}/g, home);

interface Case {
  label: string;
  tool: 'file_read' | 'file_write' | 'file_copy' | 'file_edit';
  input: Record<string, unknown>;
  tier?: Tier;
  /** Per checked param: the resolved path (undefined when unusable), decision and a reason fragment. */
  expect: Record<string, { resolved: string | undefined; decision: 'allow' | 'deny'; reason?: RegExp }>;
}

const LONG = 'x'.repeat(5000);
const LONG_NAME = 'n'.repeat(300);

const CASES: Case[] = [
  { label: 'relative file', tool: 'file_read', input: { path: 'a.txt' }, expect: { '/path': { resolved: '{ws}/a.txt', decision: 'allow', reason: /inside the readable root/ } } },
  { label: './ and .. inside the cwd', tool: 'file_read', input: { path: './sub/../a.txt' }, expect: { '/path': { resolved: '{ws}/a.txt', decision: 'allow' } } },
  { label: 'nested relative', tool: 'file_read', input: { path: 'sub/b.txt' }, expect: { '/path': { resolved: '{ws}/sub/b.txt', decision: 'allow' } } },
  { label: '../ traversal to a sibling', tool: 'file_read', input: { path: '../outside/secret.txt' }, expect: { '/path': { resolved: '{outside}/secret.txt', decision: 'deny', reason: /outside the readable roots/ } } },
  { label: '../.. traversal to /etc', tool: 'file_read', input: { path: `${'../'.repeat(40)}etc/passwd` }, expect: { '/path': { resolved: '/etc/passwd', decision: 'deny', reason: /resolves to \/etc\/passwd, which is outside/ } } },
  { label: 'traversal through a subdirectory', tool: 'file_write', input: { path: 'sub/../../outside/x.txt', content: '' }, expect: { '/path': { resolved: '{outside}/x.txt', decision: 'deny', reason: /outside the writable roots/ } } },
  { label: 'absolute inside the cwd', tool: 'file_read', input: { path: '{ws}/a.txt' }, expect: { '/path': { resolved: '{ws}/a.txt', decision: 'allow' } } },
  { label: 'absolute outside the roots', tool: 'file_read', input: { path: '/etc/passwd' }, expect: { '/path': { resolved: '/etc/passwd', decision: 'deny', reason: /^\/etc\/passwd is outside the readable roots/ } } },
  { label: 'absolute write outside the roots', tool: 'file_write', input: { path: '/etc/toolnorm-test', content: 'x' }, expect: { '/path': { resolved: '/etc/toolnorm-test', decision: 'deny', reason: /only a privileged session may write/ } } },
  { label: 'read in an extra readable root', tool: 'file_read', input: { path: '{ro}/r.txt' }, expect: { '/path': { resolved: '{ro}/r.txt', decision: 'allow', reason: /inside the readable root/ } } },
  { label: 'write in a read-only root', tool: 'file_write', input: { path: '{ro}/r.txt', content: 'x' }, expect: { '/path': { resolved: '{ro}/r.txt', decision: 'deny', reason: /outside the writable roots/ } } },
  { label: '~ alone is the home directory', tool: 'file_read', input: { path: '~' }, expect: { '/path': { resolved: '{home}', decision: 'allow' } } },
  { label: '~/ is the home directory', tool: 'file_read', input: { path: '~/' }, expect: { '/path': { resolved: '{home}', decision: 'allow' } } },
  { label: '~/x is below home', tool: 'file_read', input: { path: '~/notes.txt' }, expect: { '/path': { resolved: '{home}/notes.txt', decision: 'allow' } } },
  { label: '~/.. escaping home and the roots', tool: 'file_read', input: { path: '~/../../outside/secret.txt' }, expect: { '/path': { resolved: '{outside}/secret.txt', decision: 'deny' } } },
  { label: '~other/x is not expanded', tool: 'file_read', input: { path: '~other/x.txt' }, expect: { '/path': { resolved: '{ws}/~other/x.txt', decision: 'allow', reason: /~other is not expanded/ } } },
  { label: '~root is not expanded', tool: 'file_write', input: { path: '~root', content: '' }, expect: { '/path': { resolved: '{ws}/~root', decision: 'allow', reason: /~root is not expanded/ } } },
  { label: 'a directory symlink out of the root', tool: 'file_read', input: { path: 'link-out/secret.txt' }, expect: { '/path': { resolved: '{outside}/secret.txt', decision: 'deny', reason: /through a symlink to .*outside the readable roots/ } } },
  { label: 'the symlink itself', tool: 'file_read', input: { path: 'link-out' }, expect: { '/path': { resolved: '{outside}', decision: 'deny' } } },
  { label: 'a relative symlink out of the root', tool: 'file_read', input: { path: 'rel-link-out' }, expect: { '/path': { resolved: '{outside}/secret.txt', decision: 'deny' } } },
  { label: 'a dangling symlink out (write would create its target)', tool: 'file_write', input: { path: 'dangling', content: 'x' }, expect: { '/path': { resolved: '{outside}/new.txt', decision: 'deny', reason: /through a symlink/ } } },
  { label: 'a new file below a symlink out', tool: 'file_write', input: { path: 'link-out/new-dir/f.txt', content: 'x' }, expect: { '/path': { resolved: '{outside}/new-dir/f.txt', decision: 'deny' } } },
  { label: 'a symlink that stays inside', tool: 'file_read', input: { path: 'link-in/b.txt' }, expect: { '/path': { resolved: '{ws}/sub/b.txt', decision: 'allow', reason: /through a symlink/ } } },
  { label: 'a symlink loop', tool: 'file_read', input: { path: 'loop1' }, expect: { '/path': { resolved: undefined, decision: 'deny', reason: /too many levels of symbolic links/ } } },
  { label: 'empty path', tool: 'file_read', input: { path: '' }, expect: { '/path': { resolved: undefined, decision: 'deny', reason: /the path is empty/ } } },
  { label: 'NUL byte', tool: 'file_write', input: { path: 'a.txt\0/etc/passwd', content: '' }, expect: { '/path': { resolved: undefined, decision: 'deny', reason: /NUL byte at index 5/ } } },
  { label: 'very long path (PATH_MAX)', tool: 'file_read', input: { path: LONG }, expect: { '/path': { resolved: undefined, decision: 'deny', reason: /5000 bytes long; the limit is 4095/ } } },
  { label: 'very long component (NAME_MAX)', tool: 'file_read', input: { path: `sub/${LONG_NAME}` }, expect: { '/path': { resolved: undefined, decision: 'deny', reason: /300 bytes long; the limit is 255/ } } },
  { label: 'a missing file in a missing directory', tool: 'file_write', input: { path: 'new-dir/new.txt', content: '' }, expect: { '/path': { resolved: '{ws}/new-dir/new.txt', decision: 'allow' } } },
  { label: 'trailing slash', tool: 'file_read', input: { path: 'sub/' }, expect: { '/path': { resolved: '{ws}/sub', decision: 'allow' } } },
  { label: '. is the cwd', tool: 'file_read', input: { path: '.' }, expect: { '/path': { resolved: '{ws}', decision: 'allow' } } },
  { label: '.. is the parent of the cwd', tool: 'file_read', input: { path: '..' }, expect: { '/path': { resolved: '{base}', decision: 'deny' } } },
  { label: 'doubled slashes and /./', tool: 'file_edit', input: { path: '{ws}//sub/./b.txt', old: 'b', new: 'c' }, expect: { '/path': { resolved: '{ws}/sub/b.txt', decision: 'allow', reason: /inside the writable root/ } } },
  { label: 'non-ASCII names', tool: 'file_write', input: { path: 'ü/ñ.txt', content: '' }, expect: { '/path': { resolved: '{ws}/ü/ñ.txt', decision: 'allow' } } },
  {
    label: 'file_copy: source outside the readable roots',
    tool: 'file_copy', input: { source: '{outside}/secret.txt', path: 'copy.txt' },
    expect: { '/source': { resolved: '{outside}/secret.txt', decision: 'deny', reason: /outside the readable roots/ }, '/path': { resolved: '{ws}/copy.txt', decision: 'allow' } },
  },
  {
    label: 'file_copy: source through a symlink out',
    tool: 'file_copy', input: { source: 'link-out/secret.txt', path: 'copy.txt' },
    expect: { '/source': { resolved: '{outside}/secret.txt', decision: 'deny' }, '/path': { resolved: '{ws}/copy.txt', decision: 'allow' } },
  },
  {
    label: 'file_copy: source in a read-only root is fine',
    tool: 'file_copy', input: { source: '{ro}/r.txt', path: 'copy.txt' },
    expect: { '/source': { resolved: '{ro}/r.txt', decision: 'allow' }, '/path': { resolved: '{ws}/copy.txt', decision: 'allow' } },
  },
  {
    label: 'file_copy: target in a read-only root',
    tool: 'file_copy', input: { source: 'a.txt', path: '{ro}/copy.txt' },
    expect: { '/source': { resolved: '{ws}/a.txt', decision: 'allow' }, '/path': { resolved: '{ro}/copy.txt', decision: 'deny', reason: /outside the writable roots/ } },
  },
  { label: 'privileged session: outside the roots is allowed', tool: 'file_read', tier: 'privileged', input: { path: '/etc/passwd' }, expect: { '/path': { resolved: '/etc/passwd', decision: 'allow', reason: /allowed because the session allows the privileged tier/ } } },
  { label: 'privileged session: unusable paths stay denied', tool: 'file_read', tier: 'privileged', input: { path: '' }, expect: { '/path': { resolved: undefined, decision: 'deny' } } },
];

describe('ToolPath + path gates: table of cases', () => {
  it('has at least 30 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(30));

  const fillDeep = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? fill(x) : x]));
  const shown = (c: Case) => Object.entries(c.expect).map(([p, e]) => `${p} → ${e.resolved ?? '(unusable)'} ${e.decision}`).join(', ');

  for (const c of CASES) it(`${c.label} — ${c.tool} ${JSON.stringify(c.input).slice(0, 60)} ⇒ ${shown(c)}`, async () => {
    const policy = await resolvePolicy({ maxTier: c.tier ?? 'execute', readRoots: [ws, ro], writeRoots: [ws] }, ws);
    const a = await assess(tools[c.tool]!, fillDeep(c.input), { sessionId: 's', cwd: ws, home }, policy);
    expect(issuesOfToolCallAssessmentRecord(a.record)).toEqual([]);
    const roleChecks = a.record.checks.filter((k) => k.gate !== 'tier' && k.param !== undefined);
    expect(roleChecks.map((k) => k.param).sort()).toEqual(Object.keys(c.expect).sort());
    for (const [param, e] of Object.entries(c.expect)) {
      const check = roleChecks.find((k) => k.param === param)!;
      expect({ param, resolved: check.resolved, decision: check.decision }).toEqual({ param, resolved: e.resolved && fill(e.resolved), decision: e.decision });
      if (e.reason) expect(check.reason).toMatch(e.reason);
      // What the gate approved is exactly what the tool receives.
      if (e.resolved) expect(a.paths[param]).toBe(fill(e.resolved));
    }
    const denied = Object.values(c.expect).some((e) => e.decision === 'deny');
    expect(a.record.decision).toBe(denied ? 'deny' : 'allow');
    expect(a.record.reasons.length).toBe(a.record.checks.filter((k) => k.decision === 'deny').length);
  });
});
