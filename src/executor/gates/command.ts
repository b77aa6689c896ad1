// EXEC_COMMAND gate: allow and deny rules over the parsed command line (gates/shell.ts). Every
// simple command is judged by its argv, with argv[0] by basename and by resolved path, so
// `npm test && rm -rf ~` is judged command by command, `/bin/cat` and `c''at` are `cat`, and with
// an allow list every command must match. When any list is set, a construct a rule cannot judge
// (substitutions, wrappers such as xargs/env/sh -c, here-documents, unparsable quoting) is denied,
// and so is a redirection to a path outside the roots.
import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import type { CommandRule } from '../policy.js';
import { checkPath } from './path.js';
import { analyzeShell } from './shell.js';
import type { RoleGate } from './types.js';

const OPERATORS = ['&&', '||', ';;', '|&', ';', '|', '&', '\n'];

/**
 * Segments of a command line, trimmed and whitespace-collapsed; quotes are respected. A quick
 * split for display; the gate judges the parsed line (analyzeShell), not these.
 */
export function commandSegments(command: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      current += c;
      if (c === '\\' && quote === '"' && i + 1 < command.length) current += command[++i];
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) { current += c + command[++i]; continue; }
    if (c === '"' || c === "'") { quote = c; current += c; continue; }
    // `2>&1` and `&>file` are redirections, not the background operator.
    const redirect = c === '&' && (command[i + 1] === '>' || command[i - 1] === '>' || command[i - 1] === '<');
    const op = redirect ? undefined : OPERATORS.find((o) => command.startsWith(o, i));
    if (op) {
      out.push(current);
      current = '';
      i += op.length - 1;
      continue;
    }
    current += c;
  }
  out.push(current);
  return out.map((s) => s.trim().replace(/\s+/g, ' ')).filter(Boolean);
}

/** `$(…)`, backticks and process substitution hide commands the segment split cannot see. */
export const hasSubstitution = (command: string) => /\$\(|`|<\(|>\(/.test(command);

const globCache = new Map<string, RegExp>();
function globRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (!re) {
    const body = glob.trim().replace(/\s+/g, ' ').split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    re = new RegExp(`^${body}$`, 's');
    globCache.set(glob, re);
  }
  return re;
}

export const ruleText = (rule: CommandRule) => (typeof rule === 'string' ? JSON.stringify(rule) : String(rule));

export function matchesRule(text: string, rule: CommandRule): boolean {
  return typeof rule === 'string' ? globRegExp(rule).test(text) : new RegExp(rule.source, rule.flags.replace('g', '')).test(text);
}

const DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|fd\/[0-2])$/;

/** PATH lookup then realpath, the program a name runs; undefined when there is none. */
function resolveProgram(name: string, cwd: string): string | undefined {
  const real = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  if (name.includes('/')) return real(resolve(cwd, name));
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const hit = real(join(dir, name));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The texts a command is matched as. Deny rules see argv[0] as given, by basename and by resolved
 * path, so `/bin/cat`, `c''at` and `cat` are all `cat`. Allow rules see the basename form only
 * when argv[0] runs the same program the bare name would, so `./evil/cat` is not `cat`.
 */
function forms(argv: readonly string[], cwd: string): { deny: string[]; allow: string[] } {
  const given = argv[0]!;
  const rest = argv.slice(1).join(' ');
  const line = (a0: string) => (rest ? `${a0} ${rest}` : a0).replace(/\s+/g, ' ').trim();
  const name = basename(given);
  const resolved = resolveProgram(given, cwd);
  // A bare name was just looked up on PATH; only a path needs the second lookup.
  const sameAsBare = !given.includes('/') || (resolved !== undefined && resolved === resolveProgram(name, cwd));
  const deny = [...new Set([line(given), line(name), ...(resolved ? [line(resolved)] : [])])];
  const allow = [...new Set([line(given), ...(resolved ? [line(resolved)] : []), ...(sameAsBare ? [line(name)] : [])])];
  return { deny, allow };
}

export const commandGate: RoleGate = async (value, ctx) => {
  const { allow, deny } = ctx.policy.commands;
  const whole = value.trim().replace(/\s+/g, ' ');
  if (!whole) return { decision: 'deny', reason: 'the command is empty' };
  if (allow.length === 0 && deny.length === 0) return { decision: 'allow', resolved: whole, reason: 'no command allow list is set and no deny rule matches (no list is set, so the line is not parsed)' };
  const denyHit = (texts: readonly string[]) => {
    for (const rule of deny) {
      const hit = texts.find((t) => matchesRule(t, rule));
      if (hit !== undefined) return { decision: 'deny' as const, resolved: whole, reason: `${JSON.stringify(hit)} matches the deny rule ${ruleText(rule)}` };
    }
    return undefined;
  };
  const byLine = denyHit([whole]);
  if (byLine) return byLine;

  const { commands, problems } = await analyzeShell(value);
  const { cwd } = ctx.base;
  const texts = commands.map((c) => (c.argv.length ? forms(c.argv, cwd) : undefined));
  for (const t of texts) {
    const hit = t && denyHit(t.deny);
    if (hit) return hit;
  }
  if (problems.length) {
    return { decision: 'deny', resolved: whole, reason: `${problems.join('; ')} (a command allow or deny list is set)` };
  }
  for (const c of commands) {
    for (const r of c.redirects) {
      if (r.target === undefined || DEVICES.test(r.target)) continue;
      if (/^~[^/]/.test(r.target) || /[*?[]/.test(r.target)) {
        return { decision: 'deny', resolved: whole, reason: `the redirection target ${JSON.stringify(r.target)} is expanded by bash in ways the path rules do not follow` };
      }
      const out = await checkPath(r.target, r.writes ? 'write' : 'read', ctx);
      if (out.decision === 'deny') return { decision: 'deny', resolved: whole, reason: `the redirection ${r.op} ${r.target}: ${out.reason}` };
    }
  }
  if (allow.length === 0) return { decision: 'allow', resolved: whole, reason: 'no command allow list is set, no deny rule matches, and every redirection stays inside the roots' };
  const matched: string[] = [];
  for (const t of texts) {
    if (!t) continue;
    let found: string | undefined;
    for (const rule of allow) {
      const x = t.allow.find((text) => matchesRule(text, rule));
      if (x !== undefined) { found = `${JSON.stringify(x)} by ${ruleText(rule)}`; break; }
    }
    if (!found) return { decision: 'deny', resolved: whole, reason: `${JSON.stringify(t.allow[0])} matches no allow rule (${allow.map(ruleText).join(', ')})` };
    matched.push(found);
  }
  return { decision: 'allow', resolved: whole, reason: `allowed: ${matched.join('; ')}` };
};
