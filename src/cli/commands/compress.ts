// Placeholder until the compress command lands.
import type { Command } from './types.js';

export const compressCommand: Command = {
  name: 'compress',
  summary: '(not implemented yet)',
  usage: 'toolnorm compress (not implemented yet)',
  async run(io) {
    io.stderr.write('toolnorm compress: not implemented yet\n');
    return 1;
  },
};
