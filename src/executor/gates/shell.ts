// What a command line will run, as the command rules need it: each simple command's argv (quotes
// removed, so `c''at` is `cat`), its redirections, and every construct whose effect cannot be
// known before bash runs it. The parse is @ericcornelissen/bash-parser's (a maintained fork of
// bash-parser, a POSIX shell grammar); it is loaded only when a rule list is set.
//
// Where that grammar and bash disagree, the difference must only ever deny more: a line it cannot
// parse is unjudgeable, bash-only syntax it misreads (`&>`, here-documents) still shows up as a
// redirection or as extra commands, and both are judged.
import { basename } from 'node:path';

export interface Redirect {
  readonly op: string;
  /** The target word (quotes removed); undefined when it is a file descriptor (`2>&1`). */
  readonly target?: string;
  /** True for redirections that write (>, >>, >|, <>, >&). */
  readonly writes: boolean;
}

export interface SimpleCommand {
  readonly argv: readonly string[];
  readonly redirects: readonly Redirect[];
}

/** Frozen: analyses are cached and shared between calls. */
export interface ShellAnalysis {
  readonly commands: readonly SimpleCommand[];
  /** Constructs no rule can judge, each a reason (empty when the line is judgeable). */
  readonly problems: readonly string[];
}

interface Word { type: string; text: string; expansion?: { type: string; parameter?: string }[] }
interface Node { type: string; [k: string]: unknown }
type Parse = (text: string) => Node;

// An optional dependency: a user who only normalizes does not install it. Without it no rule can
// judge a command, so every command is denied whenever a rule list is set, with a reason naming
// the package (never allowed on a guess).
const PARSER_PACKAGE = '@ericcornelissen/bash-parser';
let parser: Promise<Parse | undefined> | undefined;
async function loadParser(): Promise<Parse | undefined> {
  parser ??= import(PARSER_PACKAGE).then(
    (m) => ((m as { default?: Parse }).default ?? (m as unknown as Parse)),
    () => undefined,
  );
  return parser;
}

/** Programs that run another command taken from their arguments, or a whole script. */
const WRAPPERS: ReadonlySet<string> = new Set([
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox', 'rbash',
  'xargs', 'env', 'nohup', 'nice', 'ionice', 'timeout', 'stdbuf', 'time', 'command', 'builtin', 'exec', 'eval',
  'source', '.', 'sudo', 'doas', 'su', 'runuser', 'setsid', 'chroot', 'unshare', 'nsenter', 'flock', 'watch',
  'parallel', 'strace', 'ltrace', 'script', 'chrt', 'taskset', 'trap', 'coproc', 'bwrap', 'firejail',
]);

/** Arguments that make an otherwise plain program run a command. */
const RUNS_COMMANDS: Readonly<Record<string, RegExp>> = {
  find: /^-(exec|execdir|ok|okdir)$/,
  git: /^(-c|--exec-path|--config-env)/,
  tar: /^(--to-command|--use-compress-program|-I|--checkpoint-action|--info-script|--new-volume-script)/,
  rsync: /^(-e|--rsh|--rsync-path)/,
};

/** Variables that change which program a name runs, or what bash does before it runs it. */
const DANGEROUS_ASSIGNMENT = /^(PATH|IFS|ENV|BASH_ENV|CDPATH|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|GLOBIGNORE|LD_[A-Z_]*|BASH_FUNC_.*|BASH_LOADABLES_PATH|NODE_OPTIONS|PYTHONSTARTUP)=/;

const WRITE_OPS = new Set(['great', 'dgreat', 'clobber', 'lessgreat', 'greatand', 'andgreat']);

const EXPANSION_WORDS: Readonly<Record<string, string>> = {
  CommandExpansion: 'command substitution',
  ArithmeticExpansion: 'arithmetic expansion (it can run a command substitution)',
  ParameterExpansion: 'a variable expansion',
};

const NOT_JUDGED: Readonly<Record<string, string>> = {
  For: 'a for loop (its variable makes the commands unknown)',
  Case: 'a case statement',
  Function: 'a function definition',
};

/** The parse costs milliseconds; agents repeat the same commands (`npm test`) all session. */
const CACHE_SIZE = 512;
const cache = new Map<string, ShellAnalysis>();

/** Parses and analyses a command line; never throws (an unparsable line is one problem). */
export async function analyzeShell(command: string): Promise<ShellAnalysis> {
  const hit = cache.get(command);
  if (hit) return hit;
  const parse = await loadParser();
  if (!parse) return { commands: [], problems: [`command rules need the optional package ${PARSER_PACKAGE}, which is not installed (npm install ${PARSER_PACKAGE}@0.5.3)`] };
  const result = analyzeUncached(command, parse);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(command, result);
  return result;
}

function analyzeUncached(command: string, parse: Parse): ShellAnalysis {
  const problems: string[] = [];
  const commands: SimpleCommand[] = [];
  // `$'…'` (ANSI-C quoting) is a quoting game the grammar does not know; `<<` a here-document
  // it reads as words; `<(…)`/`>(…)` a process substitution; `|&` and `;&` bash-only operators.
  const syntax: [RegExp, string][] = [
    [/\$'/, "ANSI-C quoting ($'…')"],
    [/<<(?!<)/, 'a here-document'],
    [/<<</, 'a here-string'],
    [/[<>]\(/, 'process substitution'],
    [/`/, 'command substitution (backticks)'],
    [/\$\(/, 'command substitution'],
  ];
  for (const [re, what] of syntax) if (re.test(command)) problems.push(`it uses ${what}, which the rules cannot judge`);
  let ast: Node;
  try {
    ast = parse(command);
  } catch (err) {
    const why = (err as Error).message.split('\n')[0] ?? 'parse error';
    return Object.freeze({ commands: Object.freeze(commands), problems: Object.freeze([...problems, `the command line cannot be parsed (${why}), so the rules cannot judge it`]) });
  }

  const wordProblems = (w: Word, where: string) => {
    for (const e of w.expansion ?? []) {
      const what = EXPANSION_WORDS[e.type] ?? e.type;
      if (e.type === 'ParameterExpansion' && where === 'argument') continue;
      problems.push(`${where} ${JSON.stringify(w.text)} uses ${what}, which the rules cannot judge`);
    }
    if (where === 'the command name' && /[*?[]/.test(w.text)) problems.push(`the command name ${JSON.stringify(w.text)} is a glob pattern`);
  };

  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    switch (n.type) {
      case 'Script':
      case 'CompoundList':
      case 'Pipeline':
        for (const c of (n.commands as Node[]) ?? []) visit(c);
        return;
      case 'LogicalExpression':
        visit(n.left); visit(n.right);
        return;
      case 'Subshell':
        visit(n.list);
        return;
      case 'If':
      case 'While':
      case 'Until':
        visit(n.clause); visit(n.then); visit(n.else); visit(n.do);
        return;
      case 'Command':
        command_(n);
        return;
      default:
        problems.push(`it contains ${NOT_JUDGED[n.type] ?? `a ${n.type} construct`}, which the rules cannot judge`);
    }
  };

  const command_ = (n: Node) => {
    const argv: string[] = [];
    const redirects: Redirect[] = [];
    const parts = [...((n.prefix as Node[]) ?? []), ...((n.suffix as Node[]) ?? [])];
    const name = n.name as Word | undefined;
    if (name) { wordProblems(name, 'the command name'); argv.push(name.text); }
    for (const p of parts) {
      if (p.type === 'Redirect') {
        const op = (p.op as { type: string; text: string });
        const file = p.file as Word | undefined;
        const isFd = (op.type === 'greatand' || op.type === 'lessand') && file && /^(\d+|-)$/.test(file.text);
        if (file && !isFd) wordProblems(file, 'the redirection target');
        redirects.push({ op: op.text, writes: WRITE_OPS.has(op.type), ...(file && !isFd ? { target: file.text } : {}) });
      } else if (p.type === 'AssignmentWord') {
        const w = p as unknown as Word;
        if (DANGEROUS_ASSIGNMENT.test(w.text)) problems.push(`the assignment ${JSON.stringify(w.text.split('=')[0] + '=…')} changes what commands run`);
        for (const e of w.expansion ?? []) if (e.type !== 'ParameterExpansion') problems.push(`the assignment ${JSON.stringify(w.text)} uses ${EXPANSION_WORDS[e.type] ?? e.type}`);
      } else if (p.type === 'Word' || p.type === 'dless' || p.type === 'dlessdash') {
        if (p.type !== 'Word') { problems.push('it uses a here-document, which the rules cannot judge'); continue; }
        wordProblems(p as unknown as Word, 'argument');
        argv.push((p as unknown as Word).text);
      }
    }
    if (argv.length) {
      const prog = basename(argv[0]!);
      if (WRAPPERS.has(prog)) problems.push(`${JSON.stringify(argv[0])} runs a command given in its arguments (or a script), which the rules cannot judge`);
      const runs = RUNS_COMMANDS[prog];
      const hit = runs && argv.slice(1).find((a) => runs.test(a));
      if (hit) problems.push(`${JSON.stringify(argv[0])} with ${JSON.stringify(hit)} runs another command, which the rules cannot judge`);
    }
    commands.push({ argv, redirects });
  };

  visit(ast);
  const movesCwd = commands.some((c) => ['cd', 'pushd', 'popd'].includes(basename(c.argv[0] ?? '')));
  if (movesCwd && commands.some((c) => c.redirects.some((r) => r.target !== undefined))) {
    problems.push('it changes directory and redirects to a file, so the redirection target cannot be resolved before it runs');
  }
  return Object.freeze({ commands: Object.freeze(commands), problems: Object.freeze([...new Set(problems)]) });
}
