// Placeholder until the codex adapter lands: it recognises nothing and says so for every line.
import type { AdapterDefinition } from '../types.js';
import { EventEmitterFor } from '../shared/emit.js';

export const codexAdapter: AdapterDefinition = {
  id: 'codex',
  provider: 'codex',
  description: 'codex (not implemented yet)',
  sniff: () => 0,
  create(sink) {
    const out = new EventEmitterFor(sink, 'codex');
    return {
      line(text, pos) {
        if (text.trim()) out.malformed(text, 'the codex adapter is not implemented yet', pos);
      },
      end() {},
    };
  },
};
