// Command titles, one rule for every provider (docs/contract.md#command-titles). A command is
// parsed into actions (read / listFiles / search / unknown, the way Codex's app-server
// `commandActions` and rollout `parsed_cmd` name them). When every action is known, the title says
// what the command does (`Reading src/a.ts`); otherwise it is the command without its shell wrapper.
import { parseCommand, type ParsedAction } from './command-parse.js';
import { commandTitle, displayPath } from '../../present/titles.js';
import { scriptOf } from './shell.js';

/** `commandTitle` of the first non-blank line, without copying a multi-megabyte script first. */
export function lineTitle(s: string, max = 80): string {
  const start = s.search(/\S/);
  if (start === -1) return '';
  const nl = s.indexOf('\n', start);
  return commandTitle(s.slice(start, nl === -1 ? Math.min(s.length, start + max * 4) : Math.min(nl, start + max * 4)), max);
}

function actionTitle(a: ParsedAction & { name?: string }, cwd?: string): string | undefined {
  const p = a.path ? displayPath(a.path, cwd) : undefined;
  switch (a.type) {
    case 'read':
      return p || a.name ? `Reading ${p ?? a.name}` : undefined;
    case 'listFiles':
      return p ? `Listing ${p}` : 'Listing files';
    case 'search':
      if (a.query && p) return `Searching for "${a.query}" in ${p}`;
      if (a.query) return `Searching for "${a.query}"`;
      return p ? `Searching in ${p}` : 'Searching files';
    default:
      return undefined;
  }
}

/**
 * Title of a command, from the command itself (shared/command-parse.ts): its actions when all are
 * known, else the script, else a generic line. Codex's own parse (`commandActions`, `parsed_cmd`)
 * is kept in metadata but does not make the title: exec lines do not carry it, and one command
 * gets one title in every form.
 */
// A call is titled on each sighting (started, updated, completed) with the same command, and a
// session runs the same short commands again and again (`ls`, `git status`, `npm test`): titles
// of short commands are remembered by cwd and command, the last TITLES_KEPT. A long script is
// parsed each time rather than held.
let lastTitle: { command: unknown; cwd: string | undefined; title: string } | undefined;
const TITLES_KEPT = 500;
const KEPT_COMMAND_LENGTH = 500;
let titles = new Map<string | undefined, Map<string, string>>();
let titlesKept = 0;

export function commandItemTitle(command: unknown, cwd?: string): string {
  if (typeof command === 'string' && command.length <= KEPT_COMMAND_LENGTH) {
    let known = titles.get(cwd);
    const title = known?.get(command);
    if (title !== undefined) return title;
    if (titlesKept >= TITLES_KEPT) {
      titles = new Map();
      titlesKept = 0;
      known = undefined;
    }
    if (!known) titles.set(cwd, (known = new Map()));
    const made = commandTitleOf(command, cwd);
    known.set(command, made);
    titlesKept++;
    return made;
  }
  if (lastTitle && lastTitle.cwd === cwd && (lastTitle.command === command || (typeof command === 'string' && command === lastTitle.command))) return lastTitle.title;
  const title = commandTitleOf(command, cwd);
  lastTitle = { command, cwd, title };
  return title;
}

function commandTitleOf(command: unknown, cwd?: string): string {
  const script = scriptOf(command);
  if (!script) return 'Running a command';
  const actions = parseCommand(script);
  if (actions?.length) {
    const titles = actions.map((a) => actionTitle(a, cwd));
    if (titles.every((t): t is string => t !== undefined)) return commandTitle([...new Set(titles)].join(', '), 120);
  }
  return lineTitle(script) || 'Running a command';
}
