// The ecosystem encoders stay out of the core: no static (value) import path from the package
// entry or the CLI reaches src/ai-sdk, src/ag-ui or src/otel; the CLI reaches them by import().
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(STATIC)) {
      const ts = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      // Generated validators are plain JS (with a .d.ts): no source to follow.
      walk(existsSync(ts) ? ts : resolve(dirname(file), m[1]!));
    }
  };
  walk(entry);
  return seen;
}

const ENCODERS = /\/src\/(ai-sdk|ag-ui|otel)\//;

describe('lazy ecosystem encoders', () => {
  it.each(['src/index.ts', 'src/cli/main.ts'])('nothing statically imported from %s is an encoder', (entry) => {
    const files = [...reachable(join(REPO_ROOT, entry))];
    // The walk must reach something (the CLI's entry now loads its commands lazily, so it reaches few files).
    expect(files.length).toBeGreaterThan(entry === 'src/index.ts' ? 10 : 2);
    expect(files.filter((f) => ENCODERS.test(f))).toEqual([]);
  });

  it('the CLI loads each encoder with import()', () => {
    const text = readFileSync(join(REPO_ROOT, 'src/cli/encoders.ts'), 'utf8');
    expect([...text.matchAll(DYNAMIC)].map((m) => m[1]).sort()).toEqual(['../ag-ui/index.js', '../ai-sdk/index.js', '../ai-sdk/index.js', '../otel/index.js']);
  });
});
