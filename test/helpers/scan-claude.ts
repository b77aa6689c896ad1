// An independent scan of raw Claude Code files, used to check the adapter's counts. It knows
// nothing of line types: it walks every JSON value and collects tool_use blocks (wherever they are
// nested: assistant frames, stream events, agent_progress copies) and tool_result blocks.
export interface Scan {
  /** Distinct tool_use ids, with the tool name the model used. */
  uses: Map<string, string>;
  /** Distinct tool_use ids that have a tool_result. */
  results: Set<string>;
  /** Distinct tool_use ids whose tool_result has is_error: true. */
  errors: Set<string>;
}

export function scan(texts: string[]): Scan {
  const s: Scan = { uses: new Map(), results: new Set(), errors: new Set() };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.type === 'tool_use' && typeof o.id === 'string' && typeof o.name === 'string') s.uses.set(o.id, o.name);
    if (o.type === 'tool_result' && typeof o.tool_use_id === 'string') {
      s.results.add(o.tool_use_id);
      if (o.is_error === true) s.errors.add(o.tool_use_id);
    }
    for (const x of Object.values(o)) if (x && typeof x === 'object') walk(x);
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        walk(JSON.parse(line));
      } catch {
        // not JSON: the adapter reports it; nothing to count
      }
    }
  }
  return s;
}
