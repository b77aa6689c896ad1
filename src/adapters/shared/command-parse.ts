// What a shell command does, read from the command itself: the read / list / search actions of a
// script, the way Codex's own command parser names them (`commandActions`, `parsed_cmd`). Titles
// come from this parse in every input form, so a command gets one title whether or not the form
// carried Codex's parse (exec JSONL does not). Anything this parser does not understand is
// `unknown`, and the title is then the command line itself.

export interface ParsedAction {
  type: 'read' | 'listFiles' | 'search' | 'unknown';
  path?: string;
  query?: string;
}

/** Words and the operators between them; undefined for a script this parser does not read. */
function tokens(script: string): string[][] | undefined {
  // Substitutions, redirections, heredocs, globs of control flow: not a plain list of commands.
  if (/[`$<>(){}\n\\]/.test(script)) return undefined;
  const segments: string[][] = [[]];
  let cur = '';
  let inWord = false;
  const push = () => {
    if (inWord) segments[segments.length - 1]!.push(cur);
    cur = '';
    inWord = false;
  };
  for (let i = 0; i < script.length; i++) {
    const ch = script[i]!;
    if (ch === "'" || ch === '"') {
      const end = script.indexOf(ch, i + 1);
      if (end === -1) return undefined;
      cur += script.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === ' ' || ch === '\t') {
      push();
    } else if (ch === '&' || ch === '|' || ch === ';') {
      push();
      if ((ch === '&' || ch === '|') && script[i + 1] === ch) i++;
      else if (ch === '&') return undefined; // a background job
      segments.push([]);
    } else {
      cur += ch;
      inWord = true;
    }
  }
  push();
  return segments.filter((s) => s.length > 0);
}

/** Commands that only print or format what another command produced: they add no action. */
const FORMATTING = new Set(['echo', 'printf', 'true', 'false', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'column', 'nl', 'less', 'more', 'xargs', 'tee']);
const READERS = new Set(['cat', 'bat', 'batcat', 'less', 'more', 'head', 'tail', 'nl', 'type']);
const LISTERS = new Set(['ls', 'tree', 'eza', 'exa', 'la', 'll']);
const SEARCHERS = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'git-grep']);
/** Flags of these commands that take a value (the next word is not a path). */
const VALUE_FLAGS: Record<string, ReadonlySet<string>> = {
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c']),
  rg: new Set(['-g', '--glob', '-t', '--type', '-e', '-m', '-A', '-B', '-C', '--max-count', '-f']),
  grep: new Set(['-e', '-m', '-A', '-B', '-C', '--include', '--exclude', '-f']),
  ls: new Set(['-I', '--ignore']),
  tree: new Set(['-L', '-I', '-P']),
};

/** Operands of a command: its words without flags (and their values). */
function operands(cmd: string, args: readonly string[]): string[] {
  const takesValue = VALUE_FLAGS[cmd] ?? VALUE_FLAGS[cmd === 'egrep' || cmd === 'fgrep' ? 'grep' : ''] ?? new Set<string>();
  const out: string[] = [];
  let flagsDone = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!flagsDone && a === '--') {
      flagsDone = true;
    } else if (!flagsDone && a.startsWith('-') && a.length > 1) {
      if (takesValue.has(a)) i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

function actionOf(words: readonly string[]): ParsedAction | null {
  const cmd = words[0]!.replace(/^.*\//, '');
  const args = words.slice(1);
  if (cmd === 'sed' && args[0] === '-n' && args.length === 3 && /^\d+(,\d+)?p$/.test(args[1]!)) return { type: 'read', path: args[2] };
  if (READERS.has(cmd)) {
    const files = operands(cmd, args);
    if (files.length === 1) return { type: 'read', path: files[0] };
    if (files.length === 0 && FORMATTING.has(cmd)) return null;
    return { type: 'unknown' };
  }
  if (LISTERS.has(cmd)) {
    const dirs = operands(cmd, args);
    if (dirs.length <= 1) return dirs[0] ? { type: 'listFiles', path: dirs[0] } : { type: 'listFiles' };
    return { type: 'unknown' };
  }
  if (SEARCHERS.has(cmd) || (cmd === 'git' && args[0] === 'grep')) {
    const ops = operands(cmd === 'git' ? 'grep' : cmd, cmd === 'git' ? args.slice(1) : args);
    if (ops.length === 0 || ops.length > 2) return { type: 'unknown' };
    return ops[1] ? { type: 'search', query: ops[0], path: ops[1] } : { type: 'search', query: ops[0] };
  }
  if (cmd === 'cd') return null;
  if (FORMATTING.has(cmd)) return null;
  return { type: 'unknown' };
}

/**
 * The actions of a script (without its shell wrapper), or undefined when it cannot be read. A
 * command that only prints or formats (`echo`, `| head`) or changes directory adds no action.
 */
export function parseCommand(script: string): ParsedAction[] | undefined {
  const segs = tokens(script.trim());
  if (!segs || segs.length === 0) return undefined;
  const actions: ParsedAction[] = [];
  for (const words of segs) {
    const a = actionOf(words);
    if (a) actions.push(a);
  }
  return actions;
}
