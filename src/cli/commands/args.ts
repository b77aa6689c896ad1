import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './types.js';

/** `util.parseArgs` whose failures (unknown option, missing value) become usage errors: exit 2 with the usage text. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
