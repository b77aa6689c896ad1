// The token estimators: bytes4 is arithmetic; exact loads the optional gpt-tokenizer on demand and
// says clearly when it cannot. This file starts with the estimator unloaded (fresh module state).
import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { OutputCompressionSpec } from '../../src/contract/index.js';
import { CompressionStream, DeclarativeCompressor, EstimatorUnavailableError, bytes4Estimator, compressText, exactEstimatorLoaded, loadExactEstimator } from '../../src/compress/index.js';

const exactSpec: OutputCompressionSpec = { id: 'exact', budget: { maxTokens: 300 }, strategy: [{ type: 'head_tail' }], estimator: 'exact' };
const count = (t: string) => countTokens(t, { disallowedSpecial: new Set() });
const sample = Array.from({ length: 3000 }, (_, i) => `${i}: compiling module_${i} … 日本語 ✓ <|endoftext|> ${'ab'.repeat(i % 7)}`).join('\n');

describe('token estimators', () => {
  it('bytes4 is ceil(UTF-8 bytes / 4)', () => {
    expect(bytes4Estimator.count('')).toBe(0);
    expect(bytes4Estimator.count('abcde')).toBe(2);
    expect(bytes4Estimator.count('日本')).toBe(2);
  });

  it('a spec asking for exact before it is loaded is refused with the way out', () => {
    expect(exactEstimatorLoaded()).toBe(false);
    expect(() => new DeclarativeCompressor([exactSpec])).toThrow(EstimatorUnavailableError);
    expect(() => new DeclarativeCompressor([exactSpec])).toThrow(/await loadExactEstimator\(\) or DeclarativeCompressor\.create\(\)/);
  });

  it('a missing gpt-tokenizer gives a clear error naming the package and the alternative', async () => {
    const missing = async (name: string) => {
      throw Object.assign(new Error(`Cannot find package '${name}' imported from toolnorm`), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    await expect(loadExactEstimator(missing)).rejects.toThrow(EstimatorUnavailableError);
    await expect(loadExactEstimator(missing)).rejects.toThrow(/optional dependency gpt-tokenizer.*Cannot find package 'gpt-tokenizer\/encoding\/o200k_base'.*npm install gpt-tokenizer.*"bytes4"/s);
    await expect(loadExactEstimator(async () => ({}))).rejects.toThrow(/has no countTokens function/);
    expect(exactEstimatorLoaded()).toBe(false);
  });

  it('exact counts o200k tokens and keeps the token budget by real count', async () => {
    const c = await DeclarativeCompressor.create([exactSpec]);
    const r = c.compressText(sample, 'exact');
    expect(r.stats.estimator).toBe('exact');
    expect(r.compressed).toBe(true);
    expect(count(r.text)).toBe(r.stats.keptTokens);
    expect(r.stats.keptTokens).toBeLessThanOrEqual(300);
    // Close to the budget, not far under it.
    expect(r.stats.keptTokens).toBeGreaterThan(240);
    const small = sample.slice(0, 20_000);
    expect(compressText(small, exactSpec).stats.originalTokens).toBe(count(small));
  });

  it('exact counts the same streamed as whole, whatever the chunking', async () => {
    await loadExactEstimator();
    const big = sample.repeat(3);
    const whole = compressText(big, exactSpec);
    const engine = new CompressionStream(exactSpec);
    const buf = Buffer.from(big);
    for (let i = 0; i < buf.length; i += 1000 + (i % 7919)) engine.write(buf.subarray(i, i + 1000 + (i % 7919)));
    const streamed = engine.end();
    expect(streamed.stats).toEqual(whole.stats);
    expect(streamed.text).toBe(whole.text);
    // Split on newlines every 64 KiB, the sum stays within a fraction of a percent of one count.
    expect(Math.abs(whole.stats.originalTokens - count(big)) / count(big)).toBeLessThan(0.005);
  });
});
