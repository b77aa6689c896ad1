// Runs rss-child.ts in a fresh Node process (no vitest), for the memory test and the benchmark.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { OutputCompressionSpec } from '../../src/contract/index.js';
import { CODEX_SPEC } from '../../src/compress/index.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./rss-child.ts', import.meta.url));
export const MiB = 1024 * 1024;

export interface ChildReport { bytes: number; ms: number; mbPerS: number; peakRssMB: number; rssBeforeMB: number; keptBytes: number; originalBytes: number; strategy: string }

/** Streams `bytes` of synthetic tool output through the compressor in a child; its peak RSS. */
export async function streamInChild(bytes: number, spec: OutputCompressionSpec = CODEX_SPEC): Promise<ChildReport> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, String(bytes), JSON.stringify(spec)], { maxBuffer: MiB });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport;
}
