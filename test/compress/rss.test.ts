// Memory stays bounded on streamed input: peak RSS of a child process compressing 32 MiB and
// 256 MiB read from a stream differs by far less than the input. The 1 GiB run (and a lines-only
// budget, which is bounded by maxRetainedBytes) is gated: TOOLNORM_SLOW_TESTS=1, or see
// `npm run bench -- compress`.
import { describe, expect, it } from 'vitest';
import type { OutputCompressionSpec } from '../../src/contract/index.js';
import { CODEX_SPEC } from '../../src/compress/index.js';
import { MiB, streamInChild } from './rss-run.js';

const LINES_ONLY: OutputCompressionSpec = { id: 'lines', budget: { maxLines: 200 }, strategy: [{ type: 'ansi_strip' }, { type: 'collapse_repeats' }, { type: 'head_tail' }] };

describe('streaming memory', () => {
  it('peak RSS does not grow with the input (32 MiB vs 256 MiB from a stream)', async () => {
    const small = await streamInChild(32 * MiB);
    const big = await streamInChild(256 * MiB);
    expect(big.originalBytes).toBe(256 * MiB);
    expect(big.keptBytes).toBeLessThanOrEqual(40_000);
    expect(big.peakRssMB - small.peakRssMB).toBeLessThan(32);
    expect(big.peakRssMB).toBeLessThan(256);
  });

  it.runIf(process.env.TOOLNORM_SLOW_TESTS === '1')('1 GiB from a stream stays under 200 MB peak RSS, for a token and a lines-only budget', async () => {
    for (const spec of [CODEX_SPEC, LINES_ONLY]) {
      const r = await streamInChild(1024 * MiB, spec);
      expect(r.originalBytes).toBe(1024 * MiB);
      expect(r.peakRssMB).toBeLessThan(200);
    }
  });
});
