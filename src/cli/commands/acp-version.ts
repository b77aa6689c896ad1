// `--acp-version` of the commands that print ACP frames.
import { UsageError } from './types.js';

/** 1 (the default, ACP's stable version) or 2 (the draft). */
export function acpVersionOption(value: string | undefined): 1 | 2 {
  if (value === undefined || value === '1') return 1;
  if (value === '2') return 2;
  throw new UsageError(`--acp-version must be 1 or 2, got "${value}"`);
}
