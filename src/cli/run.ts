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
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `toolnorm <command> --help` for a command\'s options.',
    'With no FILE and stdin a terminal, `toolnorm normalize` runs on an embedded recorded Claude Code session.',
    '',
  ].join('\n');
}

/** Runs the CLI in-process and resolves to the exit code. Never throws. */
export async function runCli(io: CommandIO): Promise<number> {
  const [name, ...rest] = io.argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainUsage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr.write(`toolnorm: unknown command "${name}"\n\n${mainUsage()}`);
    return 2;
  }
  const command = await entry.load();
  // Arguments after `--` are another program's (`toolnorm record -- codex --help`).
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('--help') || own.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run({ ...io, argv: rest });
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`toolnorm ${command.name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    const failed = outputFailure(err, command.name, io.stderr);
    if (failed !== undefined) return failed;
    safeWrite(io.stderr, `toolnorm ${command.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
