// What the docs say a CLI default is, the CLI's own usage says too: the default --clock is read
// from `toolnorm normalize --help`, and every "default" clock the docs name must be that one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeCommand } from '../../src/cli/commands/normalize.js';
import { markdownSources } from './snippets.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** "default `--clock X`", "`--clock X` (the default)", "default X clock" (also across a line break). */
const CLAIMS = [/default\s+`?--clock\s+(\w+)`?/g, /`--clock\s+(\w+)`\s+\(the\s+default\)/g, /default\s+(\w+)\s+clock/g];

describe('the default --clock in the docs', () => {
  it('is the one `toolnorm normalize --help` states', () => {
    const usage = /--clock none\|zero\|wall\s+time for lines without a timestamp: (\w+) \(default/.exec(normalizeCommand.usage);
    expect(usage?.[1]).toBe('none');
    const claims: string[] = [];
    for (const file of markdownSources(ROOT)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const re of CLAIMS) for (const m of text.matchAll(re)) claims.push(`${file}: ${m[1]}`);
    }
    // The docs do name it (contract.md, outputs.md), so the check is not vacuous.
    expect(claims.length).toBeGreaterThanOrEqual(2);
    expect(claims.filter((c) => !c.endsWith(`: ${usage![1]}`))).toEqual([]);
  });
});
