import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './types.js';

/** `util.parseArgs` whose failures (unknown option, missing value) become usage errors: exit 2 with one line. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(shortReason((err as Error).message));
  }
}

/**
 * Node's first sentence names the fault; the rest (how to pass a positional that starts with `-`)
 * would make the one usage line three lines long.
 */
function shortReason(message: string): string {
  return message.replace(/\. To specify a positional argument.*$/s, '').replace(/\.$/, '');
}
