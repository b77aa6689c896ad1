// `codex exec --json`: thread.started / turn.* / item.{started,updated,completed} / error lines.
//
// Id rule for the web-search line with two `id` keys
// (`{"id":"item_2","type":"web_search","id":"ws_abc123",…}`): the FIRST `id` is the part id. It is
// the exec item id (`item_N`), which exec guarantees is the same on item.started, item.updated and
// item.completed (it maps raw ids to `item_N`), like every other exec item. `JSON.parse` keeps the
// last key, the provider's `ws_…` id; we recover the first from the raw line and keep the other in
// `metadata.providerItemId`.
import type { InputPosition } from '../../types.js';
import { nonEmpty, obj, text, type Obj } from '../fields.js';
import { interruptGroup, observeItem, type CodexContext, type Phase } from '../observe.js';
import { ownKeysOnly } from '../../shared/table.js';

const PHASE: Record<string, Phase> = { 'item.started': 'started', 'item.updated': 'updated', 'item.completed': 'completed' };
ownKeysOnly(PHASE);
const QUIET = new Set(['thread.started', 'turn.started', 'turn.completed', 'error']);

/** Values of every `"id"` key directly inside the top-level `"item"` object, in order. */
export function itemIds(line: string): string[] {
  const ids: string[] = [];
  let depth = 0;
  let itemDepth = -1;
  let key: string | undefined;
  let afterColon = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      const raw = line.slice(i + 1, j);
      i = j;
      let k = j + 1;
      while (k < line.length && (line[k] === ' ' || line[k] === '\t')) k++;
      if (line[k] === ':' && !afterColon) {
        key = raw;
        afterColon = true;
        i = k;
      } else {
        if (afterColon && depth === itemDepth && key === 'id') {
          try {
            ids.push(JSON.parse(`"${raw}"`) as string);
          } catch {
            ids.push(raw);
          }
        }
        afterColon = false;
      }
    } else if (ch === '{' || ch === '[') {
      if (ch === '{' && afterColon && depth === 1 && key === 'item' && itemDepth === -1) itemDepth = depth + 1;
      depth++;
      afterColon = false;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (itemDepth !== -1 && depth < itemDepth) {
        if (ids.length) return ids;
        itemDepth = -2;
      }
      afterColon = false;
    } else if (ch === ',') {
      afterColon = false;
    }
  }
  return ids;
}

export class ExecForm {
  private sessionId: string | undefined;

  constructor(private readonly c: CodexContext, private readonly fallbackSession: () => string, private readonly cwd: () => string | undefined) {}

  private session(): string {
    return this.sessionId ?? this.fallbackSession();
  }

  line(o: Obj, raw: string, pos: InputPosition): void {
    const type = text(o.type) ?? '';
    const phase = PHASE[type];
    if (phase) return this.item(o, raw, phase, pos);
    if (type === 'thread.started') {
      this.sessionId = nonEmpty(o.thread_id) ?? nonEmpty(o.threadId) ?? this.sessionId;
      return;
    }
    if (type === 'turn.failed') {
      const message = nonEmpty(obj(o.error)?.message) ?? 'turn failed';
      const session = this.session();
      interruptGroup(this.c, session, `stopped because the turn failed (${message})`, this.c.now(), pos);
      return;
    }
    if (QUIET.has(type)) return;
    this.c.warnOnce(`exec:${type}`, 'unknown_event', `codex exec event type "${type}" is not known; lines of this type are ignored`, pos);
  }

  private item(o: Obj, raw: string, phase: Phase, pos: InputPosition): void {
    const item = obj(o.item);
    if (!item) {
      this.c.out.malformed(raw, `${String(o.type)} without an item object`, pos);
      return;
    }
    let partId = nonEmpty(item.id);
    let providerItemId: string | undefined;
    // Only lines with two `"id"` keys need the raw scan; everything else uses the parsed id.
    const first = raw.indexOf('"id"');
    if (first !== -1 && raw.indexOf('"id"', first + 4) !== -1) {
      const ids = itemIds(raw);
      if (ids.length > 1) {
        partId = ids[0];
        providerItemId = ids[ids.length - 1];
      }
    }
    if (!partId) {
      this.c.out.malformed(raw, `${String(o.type)} item without an id`, pos);
      return;
    }
    const session = this.session();
    const cwd = this.cwd();
    observeItem(this.c, {
      sessionId: session,
      group: session,
      partId,
      item,
      phase,
      at: this.c.now(),
      pos,
      ctx: cwd ? { cwd } : {},
      ...(providerItemId ? { extra: { providerItemId } } : {}),
    });
  }
}
