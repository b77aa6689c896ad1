// Placeholder until the opencode adapter lands: it recognises nothing and says so for every line.
import type { AdapterDefinition } from '../types.js';
import { EventEmitterFor } from '../shared/emit.js';

export const opencodeAdapter: AdapterDefinition = {
  id: 'opencode',
  provider: 'opencode',
  description: 'opencode (not implemented yet)',
  sniff: () => 0,
  create(sink) {
    const out = new EventEmitterFor(sink, 'opencode');
    return {
      line(text, pos) {
        if (text.trim()) out.malformed(text, 'the opencode adapter is not implemented yet', pos);
      },
      end() {},
    };
  },
};
