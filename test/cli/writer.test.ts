import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../src/cli/writer.js';

const collect = (s: PassThrough): Buffer[] => {
  const chunks: Buffer[] = [];
  s.on('data', (c: Buffer) => chunks.push(c));
  return chunks;
};

describe('LineWriter', () => {
  it('writes every line in order, UTF-8 exact, across buffer boundaries and lines larger than a buffer', async () => {
    const out = new PassThrough();
    const chunks = collect(out);
    const w = new LineWriter(out);
    // Multi-byte characters, surrogate pairs, lines near and far above the 256 KiB buffer.
    const lines = [
      'plain', 'é'.repeat(1000), '😀 emoji', 'x'.repeat(256 * 1024 - 3), '中'.repeat(200_000), '', 'tail 😀',
      ...Array.from({ length: 3000 }, (_, i) => `{"i":${i},"s":"${'ü'.repeat(i % 97)}"}`),
    ];
    for (const l of lines) {
      w.text(l);
      await w.flush();
    }
    w.json({ last: '€' });
    await w.close();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`${lines.join('\n')}\n{"last":"€"}\n`);
  });

  it('holds lines until the chunk size, then hands them over; a forced flush writes whatever is pending', async () => {
    const out = new PassThrough();
    const chunks = collect(out);
    const w = new LineWriter(out, 1000);
    w.text('a'.repeat(10));
    expect(w.pending).toBe(11);
    await w.flush();
    expect(chunks).toHaveLength(0);
    await w.flush(true);
    expect(w.pending).toBe(0);
    expect(Buffer.concat(chunks).toString()).toBe(`${'a'.repeat(10)}\n`);
  });

  it('reuses its buffer without corrupting a chunk the stream still holds', async () => {
    // A stream that keeps every chunk unread until the end: the bytes it holds must not change
    // when later lines are written.
    const out = new PassThrough({ highWaterMark: 1 << 30 });
    const w = new LineWriter(out, 0);
    for (let i = 0; i < 100; i++) {
      w.text(`line ${i}`);
      await w.flush();
    }
    await w.close();
    const all: Buffer[] = [];
    let c: Buffer | null;
    while ((c = out.read() as Buffer | null) !== null) all.push(c);
    expect(Buffer.concat(all).toString()).toBe(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''));
  });
});
