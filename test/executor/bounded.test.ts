// The built-in file tools keep their memory bounded whatever the file size (issue 29's attack
// run: file_edit with replaceAll on a 4 MB file took 789 MB and on a 40 MB one passed 4 GB;
// file_copy buffered whole files). Each call runs in a child process of its own
// (fixtures/bounded-child.ts, bundled here with esbuild so no TypeScript loader is measured),
// which reports its peak RSS. The child's V8 heap is capped at 128 MB so that an unbounded tool
// dies there instead of taking gigabytes of a shared machine; what is asserted is the peak RSS,
// which also counts Buffers (outside the V8 heap). A control child that reads the 200 MB file
// whole shows that the measure sees such memory.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/executor.js';

const MiB = 1024 * 1024;
const RSS_BOUND_KIB = 200 * 1024;
const ws = tempDir('toolnorm-bounded-');
const child = join(tempDir('toolnorm-bounded-child-'), 'child.mjs');

interface ChildReport {
  state: string;
  error?: { code?: string; message: string; details?: Record<string, unknown> };
  outputBytes: number;
  diffBytes: number;
  text?: string;
  structured: Record<string, unknown>;
  mutations: string[];
  bytes?: number;
  baselineRssKiB: number;
  maxRssKiB: number;
}

function runChild(tool: string, input: unknown, options: unknown = {}): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--max-old-space-size=128', child, ws, tool, JSON.stringify(input), JSON.stringify(options)], { maxBuffer: 16 * MiB, timeout: 280_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`the child for ${tool} failed (${err.message}): ${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport);
    });
  });
}

/** A file of `size` bytes repeating `pattern`, written a chunk at a time. */
function fill(name: string, size: number, pattern: string): string {
  const path = join(ws, name);
  // Whole patterns per chunk, so the file is one unbroken repetition.
  const chunk = Buffer.alloc(pattern.length * Math.floor(MiB / pattern.length), pattern);
  const fd = openSync(path, 'w');
  try {
    for (let left = size; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  } finally {
    closeSync(fd);
  }
  return path;
}

async function sha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(path)) h.update(c as Buffer);
  return h.digest('hex');
}

const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`;

beforeAll(async () => {
  await build({
    entryPoints: [join(import.meta.dirname, 'fixtures', 'bounded-child.ts')],
    bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: child, logLevel: 'warning',
    // Bundled CommonJS dependencies still call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
}, 120_000);

describe('peak memory of the built-in file tools (child process, 128 MB heap, peak RSS asserted)', () => {
  it('file_edit replaceAll on a 40 MiB file: too_large before it is read, the file unchanged, peak RSS under 200 MB', async () => {
    // 12-byte lines: 3.5 million lines, each with one "world".
    const path = fill('edit-40.txt', 40 * MiB, 'hello world\n');
    const before = await sha256(path);
    const r = await runChild('file_edit', { path: 'edit-40.txt', old: 'world', new: 'there', replaceAll: true });
    console.log(`file_edit replaceAll, 40 MiB: ${r.state} ${r.error?.code}; peak RSS ${mb(r.maxRssKiB)} (baseline ${mb(r.baselineRssKiB)})`);
    expect(r).toMatchObject({ state: 'error', error: { code: 'too_large', details: { size: 40 * MiB, limit: 16 * MiB } } });
    expect(r.error!.message).toBe(`edit-40.txt is ${40 * MiB} bytes; files over ${16 * MiB} bytes are not read (fileEdit.maxFileBytes)`);
    expect(r.maxRssKiB).toBeLessThan(RSS_BOUND_KIB);
    expect(await sha256(path)).toBe(before);
  }, 300_000);

  it('file_edit replaceAll whose result would outgrow the cap (15 MiB × 2.6 million matches): too_large before it is built', async () => {
    const path = fill('edit-15.txt', 15 * MiB, 'hello world\n');
    const before = await sha256(path);
    const matches = (15 * MiB / 12) * 2;
    const size = 15 * MiB + matches * 3;
    const r = await runChild('file_edit', { path: 'edit-15.txt', old: 'o', new: 'oooo', replaceAll: true });
    console.log(`file_edit replaceAll growing 15 MiB to ${size} bytes: ${r.state} ${r.error?.code}; peak RSS ${mb(r.maxRssKiB)}`);
    expect(r).toMatchObject({ state: 'error', error: { code: 'too_large', details: { size, limit: 16 * MiB, replacements: matches } } });
    expect(r.error!.message).toBe(`the edit would make edit-15.txt ${size} bytes (${matches} replacements); edits whose result is over ${16 * MiB} bytes are not made (fileEdit.maxResultBytes)`);
    expect(r.maxRssKiB).toBeLessThan(RSS_BOUND_KIB);
    expect(await sha256(path)).toBe(before);
  }, 300_000);

  it('file_edit replaceAll within the caps (15 MiB, 1.3 million matches): done, the diff cut under 64 KiB, peak RSS under 200 MB', async () => {
    const path = fill('edit-ok.txt', 15 * MiB, 'hello world\n');
    const lines = 15 * MiB / 12;
    const r = await runChild('file_edit', { path: 'edit-ok.txt', old: 'world', new: 'WORLD', replaceAll: true });
    console.log(`file_edit replaceAll, 15 MiB, ${lines} matches: ${r.state}; output ${r.outputBytes} bytes (diff ${r.diffBytes}); peak RSS ${mb(r.maxRssKiB)}`);
    expect(r).toMatchObject({
      state: 'complete', mutations: ['modify'],
      structured: { replacements: lines, linesAdded: lines, linesRemoved: lines, diffTruncated: true, totalHunks: 1, structuredPatch: 1 },
    });
    expect(r.diffBytes).toBeLessThanOrEqual(64 * 1024);
    expect(r.text).toMatch(/\n… \[diff cut at 65536 bytes: 1 of 1 hunks shown, the last may be partial; linesAdded and linesRemoved count the whole edit\] …$/);
    expect(r.maxRssKiB).toBeLessThan(RSS_BOUND_KIB);
    expect(statSync(path).size).toBe(15 * MiB);
    expect(await sha256(path)).toBe(createHash('sha256').update(Buffer.alloc(15 * MiB, 'hello WORLD\n')).digest('hex'));
  }, 300_000);

  it('file_copy of a 200 MiB file streams: same bytes, no temporary file left, peak RSS under 200 MB (control: reading it whole goes over)', async () => {
    const path = fill('big.bin', 200 * MiB, 'abcdefghijklmnopqrstuvwxyz0123456789\n');
    const control = await runChild('control:readFile', { path: 'big.bin' });
    const r = await runChild('file_copy', { source: 'big.bin', path: 'big-copy.bin' });
    console.log(`file_copy 200 MiB: ${r.state}; peak RSS ${mb(r.maxRssKiB)} (baseline ${mb(r.baselineRssKiB)}); control readFile: peak RSS ${mb(control.maxRssKiB)}`);
    expect(control.bytes).toBe(200 * MiB);
    expect(control.maxRssKiB).toBeGreaterThan(RSS_BOUND_KIB);
    expect(r).toMatchObject({ state: 'complete', mutations: ['create'], structured: { type: 'create', bytes: 200 * MiB } });
    expect(r.maxRssKiB).toBeLessThan(RSS_BOUND_KIB);
    expect(await sha256(join(ws, 'big-copy.bin'))).toBe(await sha256(path));
    expect(readdirSync(ws).filter((n) => n.endsWith('.toolnorm-tmp'))).toEqual([]);
    writeFileSync(path, '');
    writeFileSync(join(ws, 'big-copy.bin'), '');
  }, 300_000);
});
