// Codex runs every command through a login shell (`bash -lc '…'`, `/bin/zsh -lc "…"`, argv arrays
// in rollouts). A title shows the script a person asked for, without that wrapper.

const SHELL = /^(?:\S*[\\/])?(?:bash|zsh|sh|dash|ksh|fish)(?:\.exe)?$/;
const SHORT_FLAGS = /^-[a-z]+$/;
const POWERSHELL = /^(?:\S*[\\/])?(?:pwsh|powershell)(?:\.exe)?$/i;

/** Splits a command line into words the way a POSIX shell would (quotes and backslashes). */
export function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      cur += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1]!)) j++;
        cur += line[j];
      }
      if (j >= line.length) return undefined;
      i = j;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** argv back to one shell line, quoting only what needs it. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map((w) => (w !== '' && SAFE_WORD.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The script inside a `<shell> -lc <script>` argv, or undefined when it is not that shape. */
function scriptOfArgv(argv: readonly string[]): string | undefined {
  if (argv.length < 2) return undefined;
  const head = argv[0]!;
  if (SHELL.test(head)) {
    let i = 1;
    for (; i < argv.length - 1; i++) {
      const flag = argv[i]!;
      if (SHORT_FLAGS.test(flag) && flag.includes('c')) return argv.slice(i + 1).join(' ');
      if (!SHORT_FLAGS.test(flag) && flag !== '--login') return undefined;
    }
    return undefined;
  }
  if (POWERSHELL.test(head)) {
    const at = argv.findIndex((w, i) => i > 0 && /^-(?:command|c)$/i.test(w));
    return at > 0 && at < argv.length - 1 ? argv.slice(at + 1).join(' ') : undefined;
  }
  return undefined;
}

/** The command as a person reads it: the wrapper removed, argv joined. */
export function unwrapCommand(command: string | readonly string[]): string {
  if (typeof command !== 'string') return scriptOfArgv(command) ?? shellJoin(command);
  const trimmed = command.trim();
  // Only parse what starts like a shell wrapper; anything else is shown as the model wrote it.
  const first = trimmed.split(/\s/, 1)[0] ?? '';
  if (!SHELL.test(first) && !POWERSHELL.test(first)) return trimmed;
  const words = shellWords(trimmed);
  return (words && scriptOfArgv(words)) ?? trimmed;
}

/** `command` of an item or call as one string (argv arrays are joined). */
export function commandLine(command: unknown): string | undefined {
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((w) => typeof w === 'string')) return shellJoin(command as string[]);
  return undefined;
}

/** The script of a command (string or argv), wrapper removed. */
export function scriptOf(command: unknown): string | undefined {
  if (typeof command === 'string') return unwrapCommand(command);
  if (Array.isArray(command) && command.every((w) => typeof w === 'string')) return unwrapCommand(command as string[]);
  return undefined;
}
