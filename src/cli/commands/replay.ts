// Placeholder until the replay command lands.
import type { Command } from './types.js';

export const replayCommand: Command = {
  name: 'replay',
  summary: '(not implemented yet)',
  usage: 'toolnorm replay (not implemented yet)',
  async run(io) {
    io.stderr.write('toolnorm replay: not implemented yet\n');
    return 1;
  },
};
