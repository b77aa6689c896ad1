import { COMMANDS } from './commands/index.js';
import { UsageError, type CommandIO } from './commands/types.js';
import { outputFailure, safeWrite } from './output-errors.js';

export const VERSION = '0.1.0';

export function mainUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'toolnorm: one canonical, validated shape for coding-agent tool activity.',
    '',
    'Usage: toolnorm <command> [options]',
    '       toolnorm help <command> | --help | -V, --version',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `toolnorm <command> --help` for a command\'s options.',
    'With no FILE and stdin a terminal, `toolnorm normalize` runs on an embedded recorded Claude Code session.',
    'Exit 2 on bad usage (one line on stderr); 141, quietly, when the reader of stdout goes away (| head).',
    '',
  ].join('\n');
}

/**
 * One line for a usage error: the reason and where the full usage is. The whole usage text (30 to
 * 50 lines) would push the reason off the screen.
 */
export function usageLine(command: string | undefined, reason: string): string {
  const who = command === undefined ? 'toolnorm' : `toolnorm ${command}`;
  return `${who}: ${reason} (see \`${who} --help\`)\n`;
}

const HELP = new Set(['--help', '-h']);
const VERSION_FLAGS = new Set(['--version', '-V', '-v']);

/** Runs the CLI in-process and resolves to the exit code. Never throws. */
export async function runCli(io: CommandIO): Promise<number> {
  const [name, ...rest] = io.argv;
  if (name === undefined || HELP.has(name)) {
    io.stdout.write(mainUsage());
    return 0;
  }
  if (VERSION_FLAGS.has(name)) {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (name === 'help') return help(rest, io);
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr.write(usageLine(undefined, name.startsWith('-') ? `unknown option "${name}" before the command` : `unknown command "${name}"`));
    return 2;
  }
  const command = await entry.load();
  // Arguments after `--` are another program's (`toolnorm record -- codex --help`).
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.some((a) => HELP.has(a))) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run({ ...io, argv: rest });
  } catch (err) {
    if (err instanceof UsageError) {
      safeWrite(io.stderr, usageLine(command.name, err.message));
      return 2;
    }
    const failed = outputFailure(err, command.name, io.stderr);
    if (failed !== undefined) return failed;
    safeWrite(io.stderr, `toolnorm ${command.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

/** `toolnorm help` is `--help`; `toolnorm help CMD` is `toolnorm CMD --help`. */
async function help(args: string[], io: CommandIO): Promise<number> {
  if (!args.length) {
    io.stdout.write(mainUsage());
    return 0;
  }
  const entry = args.length === 1 ? COMMANDS.find((c) => c.name === args[0]) : undefined;
  if (!entry) {
    io.stderr.write(usageLine(undefined, args.length === 1 ? `unknown command "${args[0]}"; expected ${COMMANDS.map((c) => c.name).join(', ')}` : 'help takes one command name'));
    return 2;
  }
  io.stdout.write(`${(await entry.load()).usage}\n`);
  return 0;
}
