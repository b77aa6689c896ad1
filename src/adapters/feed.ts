// Objects in: the same adapters read provider SDK objects as well as their JSON lines.
import type { Adapter, InputPosition } from './types.js';

/**
 * Feeds one input item to an adapter: a string is a line; anything else is an already-parsed
 * value, read natively where the adapter can and through its JSON text otherwise, so both paths
 * give the same events.
 */
export function feedValue(adapter: Adapter, value: unknown, pos: InputPosition): void {
  if (typeof value === 'string') adapter.line(value, pos);
  else if (adapter.value) adapter.value(value, pos);
  else adapter.line(JSON.stringify(value) ?? 'null', pos);
}
