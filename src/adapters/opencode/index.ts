// OpenCode: `GET /event` and `GET /global/event` SSE, `opencode run --format json`, `opencode
// export` and the `GET /session/:id/message` array, all read into the same tool-part lifecycle.
// Facts and behaviour: docs/providers/opencode.md (its format facts: #format-facts).
import type { AdapterDefinition } from '../types.js';
import { EventEmitterFor } from '../shared/emit.js';
import { OpenCodeReader } from './reader.js';
import { sniffOpenCode } from './sniff.js';

export const opencodeAdapter: AdapterDefinition = {
  id: 'opencode',
  provider: 'opencode',
  description: 'OpenCode: /event and /global/event SSE, run --format json, export JSON, messages API',
  eventsChecked: true,
  sniff: sniffOpenCode,
  create(sink, options) {
    const reader = new OpenCodeReader(new EventEmitterFor(sink, 'opencode'), options);
    return {
      line: (text, pos) => reader.line(text, pos),
      value: (v, pos) => reader.input(v, pos),
      beginFile: (file) => reader.beginFile(file),
      endFile: () => reader.endFile(),
      end: () => reader.end(),
    };
  },
};
