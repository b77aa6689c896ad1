import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { mainUsage } from '../../src/cli/run.js';

describe('lazy CLI commands', () => {
  it('each entry loads its module, whose name and summary are the ones `toolnorm --help` lists', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.summary).toBe(entry.summary);
      expect(command.usage).toContain(`toolnorm ${entry.name}`);
      expect(mainUsage()).toContain(`${entry.name.padEnd(Math.max(...COMMANDS.map((c) => c.name.length)))}  ${entry.summary}`);
    }
  });
});
