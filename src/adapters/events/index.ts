// `--from events`: toolnorm's own ToolEvent NDJSON (e.g. `normalize --to events` output, or a
// store export). Each line is validated against the contract; invalid lines become diagnostics.
import { issuesOfToolEvent, type ToolEvent } from '../../contract/index.js';
import type { AdapterDefinition } from '../types.js';
import { EventEmitterFor, excerpt, parseJsonLine } from '../shared/emit.js';

export const eventsAdapter: AdapterDefinition = {
  id: 'events',
  provider: 'executor',
  description: 'toolnorm ToolEvent NDJSON',
  eventsChecked: true,
  sniff: ({ lines }) => {
    const first = lines[0];
    if (!first) return 0;
    try {
      const v = JSON.parse(first) as { type?: unknown; partId?: unknown; source?: unknown };
      return typeof v.type === 'string' && v.type.startsWith('tool.') && typeof v.partId === 'string' && !!v.source ? 1 : 0;
    } catch {
      return 0;
    }
  },
  create(sink) {
    const out = new EventEmitterFor(sink, 'executor');
    return {
      line(text, pos) {
        if (!text.trim()) return;
        const value = parseJsonLine(text, pos, out);
        if (value === undefined) return;
        const issues = issuesOfToolEvent(value);
        if (issues.length) {
          const why = issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ');
          sink.diagnostic({ severity: 'error', code: 'malformed_line', message: `line ${pos.line}: not a valid ToolEvent: ${why}`, source: out.source(pos), excerpt: excerpt(text) });
          return;
        }
        sink.event(value as ToolEvent);
      },
      end() {},
    };
  },
};
