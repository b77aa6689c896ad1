// Bounded capture of a stream's bytes: the head and the tail are kept, the middle is counted.
export class OutputCap {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(readonly limitBytes: number) {}

  get omitted(): number {
    return Math.max(0, this.total - this.headBytes - this.tailBytes);
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const half = Math.floor(this.limitBytes / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (!chunk.length) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const keep = this.limitBytes - half;
    while (this.tailBytes - this.tail[0]!.length >= keep) this.tailBytes -= this.tail.shift()!.length;
    if (this.tailBytes > keep) {
      const drop = this.tailBytes - keep;
      this.tail[0] = this.tail[0]!.subarray(drop);
      this.tailBytes -= drop;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.omitted ? `${head}\n… [${this.omitted} bytes of output omitted] …\n${tail}` : head + tail;
  }
}
