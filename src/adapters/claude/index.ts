// Placeholder until the claude adapter lands: it recognises nothing and says so for every line.
import type { AdapterDefinition } from '../types.js';
import { EventEmitterFor } from '../shared/emit.js';

export const claudeAdapter: AdapterDefinition = {
  id: 'claude',
  provider: 'claude',
  description: 'claude (not implemented yet)',
  sniff: () => 0,
  create(sink) {
    const out = new EventEmitterFor(sink, 'claude');
    return {
      line(text, pos) {
        if (text.trim()) out.malformed(text, 'the claude adapter is not implemented yet', pos);
      },
      end() {},
    };
  },
};
