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

/** One piece of a command line: blanks, a quoted string, an operator, or a bare run of characters. */
const PIECE = /([ \t]+)|'([^']*)'|"([^"]*)"|(&&|\|\||[|;&])|([^ \t'"|;&]+)/y;

/** Words and the operators between them; undefined for a script this parser does not read. */
function tokens(script: string): string[][] | undefined {
  // Substitutions, redirections, heredocs, control flow: not a plain list of commands.
  if (/[`$<>(){}\n\\]/.test(script)) return undefined;
  const segments: string[][] = [[]];
  let cur: string | undefined;
  PIECE.lastIndex = 0;
  while (PIECE.lastIndex < script.length) {
    const m = PIECE.exec(script);
    if (!m) return undefined; // an unclosed quote
    if (m[1] !== undefined || m[4] !== undefined) {
      if (cur !== undefined) segments[segments.length - 1]!.push(cur);
      cur = undefined;
      if (m[4] === '&') return undefined; // a background job
      if (m[4] !== undefined) segments.push([]);
    } else {
      // Adjacent pieces without blanks between them make one word (`a"b c"` is `ab c`).
      cur = (cur ?? '') + (m[2] ?? m[3] ?? m[5]!);
    }
  }
  if (cur !== undefined) segments[segments.length - 1]!.push(cur);
  return segments.filter((x) => x.length > 0);
}

/** Commands that only print or format what another command produced: they add no action. */
const FORMATTING = new Set(['echo', 'printf', 'true', 'false', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'column', 'nl', 'less', 'more', 'xargs', 'tee']);
const READERS = new Set(['cat', 'bat', 'batcat', 'less', 'more', 'head', 'tail', 'nl', 'type']);
const LISTERS = new Set(['ls', 'tree', 'eza', 'exa', 'la', 'll']);
const SEARCHERS = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'git-grep']);
/** Every command name a row below reads. */
const KNOWN: ReadonlySet<string> = new Set([...FORMATTING, ...READERS, ...LISTERS, ...SEARCHERS, 'sed', 'cd', 'git']);
/** Flags of these commands that take a value (the next word is not a path). */
const VALUE_FLAGS: Record<string, ReadonlySet<string>> = {
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c']),
  rg: new Set(['-g', '--glob', '-t', '--type', '-e', '-m', '-A', '-B', '-C', '--max-count', '-f']),
  grep: new Set(['-e', '-m', '-A', '-B', '-C', '--include', '--exclude', '-f']),
  ls: new Set(['-I', '--ignore']),
  tree: new Set(['-L', '-I', '-P']),
};

const NO_FLAGS: ReadonlySet<string> = new Set();

/** Operands of a command: its words without flags (and their values). */
function operands(cmd: string, args: readonly string[]): string[] {
  const takesValue = VALUE_FLAGS[cmd] ?? (cmd === 'egrep' || cmd === 'fgrep' ? VALUE_FLAGS.grep! : NO_FLAGS);
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
    const own = cmd === 'git' ? args.slice(1) : args;
    const ops = operands(cmd === 'git' ? 'grep' : cmd, own);
    // `-e PATTERN`: the pattern is a flag's value, every operand is a path.
    const e = own.indexOf('-e');
    const [query, path] = e >= 0 && own[e + 1] !== undefined ? [own[e + 1], ops[0]] : [ops[0], ops[1]];
    if (query === undefined || ops.length > (e >= 0 ? 1 : 2)) return { type: 'unknown' };
    return path ? { type: 'search', query, path } : { type: 'search', query };
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
  // Most commands are one program this parser has no row for (`make test`): say so without tokenizing.
  const first = /^\s*([^\s'"|;&]+)/.exec(script)?.[1]?.replace(/^.*\//, '');
  if (first !== undefined && !KNOWN.has(first) && !/[|;&]/.test(script)) return [{ type: 'unknown' }];
  const segs = tokens(script.trim());
  if (!segs || segs.length === 0) return undefined;
  const actions: ParsedAction[] = [];
  for (const words of segs) {
    const a = actionOf(words);
    if (a) actions.push(a);
  }
  return actions;
}
