// `normalize --store URL`: appends events as they are normalized. Placeholder until the durable
// stores land; it refuses every URL with a clear message.
import type { ToolEvent } from '../contract/index.js';

export interface StoreSink {
  add(e: ToolEvent): void;
  /** True when enough events are buffered to be worth a batch append. */
  due(): boolean;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function openStoreSink(url: string): Promise<StoreSink> {
  throw new Error(`stores are not implemented yet (${url})`);
}
