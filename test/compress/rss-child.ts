// Child process for the memory checks (test/compress/rss.test.ts, bench/compress.ts): streams N
// bytes of synthetic tool output through the streaming compressor, never holding the input, and
// prints one JSON line with the peak RSS. Usage: rss-child.ts BYTES [SPEC_JSON]
import { Readable } from 'node:stream';
import type { OutputCompressionSpec } from '../../src/contract/index.js';
import { CODEX_SPEC, compressStream } from '../../src/compress/index.js';

const total = Number(process.argv[2] ?? 1024 * 1024 * 1024);
const spec = (process.argv[3] ? JSON.parse(process.argv[3]) : CODEX_SPEC) as OutputCompressionSpec;
const CHUNK = 64 * 1024;

// Compiler-ish output: numbered lines, colours, CJK, a progress line that repeats, one long line.
const lines: string[] = [];
for (let i = 0; i < 400; i++) {
  if (i % 50 === 7) lines.push('x'.repeat(3000) + ' long line');
  else if (i % 10 === 3) lines.push('\x1b[33mwaiting for lock…\x1b[0m');
  else lines.push(`[${String(i).padStart(4, '0')}] \x1b[32mok\x1b[0m compiling src/module_${i}.ts 日本語 ✓`);
}
const pattern = Buffer.from(lines.join('\n') + '\n', 'utf8');

async function* source(): AsyncGenerator<Buffer> {
  let sent = 0;
  let at = 0;
  while (sent < total) {
    const n = Math.min(CHUNK, total - sent);
    const chunk = Buffer.allocUnsafe(n);
    for (let filled = 0; filled < n;) {
      const c = pattern.copy(chunk, filled, at, Math.min(pattern.length, at + n - filled));
      filled += c;
      at = (at + c) % pattern.length;
    }
    sent += n;
    yield chunk;
  }
}

const before = process.resourceUsage().maxRSS;
const t0 = performance.now();
const r = await compressStream(Readable.from(source(), { objectMode: false }), spec);
const ms = performance.now() - t0;
const peak = process.resourceUsage().maxRSS;
console.log(JSON.stringify({
  bytes: total,
  ms: Math.round(ms),
  mbPerS: Math.round(total / 1e6 / (ms / 1000)),
  rssBeforeMB: Math.round(before / 1024),
  peakRssMB: Math.round(peak / 1024),
  keptBytes: r.stats.keptBytes,
  originalBytes: r.stats.originalBytes,
  strategy: r.stats.strategy,
}));
