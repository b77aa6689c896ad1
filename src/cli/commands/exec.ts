// Placeholder until the exec command lands.
import type { Command } from './types.js';

export const execCommand: Command = {
  name: 'exec',
  summary: '(not implemented yet)',
  usage: 'toolnorm exec (not implemented yet)',
  async run(io) {
    io.stderr.write('toolnorm exec: not implemented yet\n');
    return 1;
  },
};
