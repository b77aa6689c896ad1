// Codex's own parse of a command (`commandActions`, `parsed_cmd`), kept in metadata. Titles come
// from the shared rule (shared/command-title.ts), which every provider uses.
import { arr, camel, get, nonEmpty, obj, type Obj } from './fields.js';

export interface CommandAction {
  type: 'read' | 'listFiles' | 'search' | 'unknown';
  command?: string;
  name?: string;
  path?: string;
  query?: string;
}

/** `commandActions` (camelCase) or `parsed_cmd` (snake_case, `cmd`), normalized. */
export function commandActions(item: Obj): CommandAction[] | undefined {
  const raw = arr(get(item, 'commandActions')) ?? arr(get(item, 'parsedCmd'));
  if (!raw) return undefined;
  const out: CommandAction[] = [];
  for (const entry of raw) {
    const a = obj(entry);
    if (!a) continue;
    const t = camel(nonEmpty(a.type) ?? 'unknown');
    const action: CommandAction = { type: t === 'read' || t === 'listFiles' || t === 'search' ? t : 'unknown' };
    const command = nonEmpty(a.command) ?? nonEmpty(a.cmd);
    if (command) action.command = command;
    for (const k of ['name', 'path', 'query'] as const) {
      const v = nonEmpty(a[k]);
      if (v) action[k] = v;
    }
    out.push(action);
  }
  return out;
}

