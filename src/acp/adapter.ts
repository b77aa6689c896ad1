// Placeholder: replaced by the ACP decoder.
import type { AdapterDefinition } from '../adapters/types.js';
export const acpAdapter: AdapterDefinition = {
  id: 'acp', provider: 'acp', description: 'ACP session/update frames', sniff: () => 0,
  create: () => ({ line() {}, end() {} }),
};
