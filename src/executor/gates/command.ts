// EXEC_COMMAND gate: allow and deny rules over command segments. A command line is split on the
// shell's list and pipe operators (outside quotes), so `npm test && rm -rf ~` is judged segment by
// segment: one denied segment denies the line, and with an allow list every segment must match.
import type { CommandRule } from '../policy.js';
import type { RoleGate } from './types.js';

const OPERATORS = ['&&', '||', ';;', '|&', ';', '|', '&', '\n'];

/** Segments of a command line, trimmed and whitespace-collapsed; quotes are respected. */
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

export const commandGate: RoleGate = async (value, ctx) => {
  const { allow, deny } = ctx.policy.commands;
  const whole = value.trim().replace(/\s+/g, ' ');
  if (!whole) return { decision: 'deny', reason: 'the command is empty' };
  const segments = commandSegments(value);
  for (const rule of deny) {
    const hit = [whole, ...segments].find((s) => matchesRule(s, rule));
    if (hit !== undefined) return { decision: 'deny', resolved: whole, reason: `${JSON.stringify(hit)} matches the deny rule ${ruleText(rule)}` };
  }
  if (allow.length === 0) return { decision: 'allow', resolved: whole, reason: 'no command allow list is set and no deny rule matches' };
  if (hasSubstitution(value)) {
    return { decision: 'deny', resolved: whole, reason: 'the command uses command or process substitution, which the allow rules cannot check' };
  }
  const matched: string[] = [];
  for (const s of segments) {
    const rule = allow.find((r) => matchesRule(s, r));
    if (rule === undefined) return { decision: 'deny', resolved: whole, reason: `${JSON.stringify(s)} matches no allow rule (${allow.map(ruleText).join(', ')})` };
    matched.push(`${JSON.stringify(s)} by ${ruleText(rule)}`);
  }
  return { decision: 'allow', resolved: whole, reason: `allowed: ${matched.join('; ')}` };
};
