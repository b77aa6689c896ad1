// Placeholder until the sessions command lands.
import type { Command } from './types.js';

export const sessionsCommand: Command = {
  name: 'sessions',
  summary: '(not implemented yet)',
  usage: 'toolnorm sessions (not implemented yet)',
  async run(io) {
    io.stderr.write('toolnorm sessions: not implemented yet\n');
    return 1;
  },
};
