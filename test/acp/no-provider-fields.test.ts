// No output encoder reads the provider's input: diffs, locations, plans, commands and approvals
// come from the typed metadata the adapters fill (docs/outputs.md#substance-what-every-output-reads). This greps the
// output sources for provider field names, and for generic keys read off an input, with a control
// showing the same grep catches each pattern in text fed to it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// src/acp/decode.ts reads ACP frames back into parts (an input, not an output); it reads ACP's
// own fields, never a provider's tool input keys, so it is scanned with the rest.
const OUTPUT_DIRS = ['src/acp', 'src/ai-sdk', 'src/ag-ui', 'src/ui', 'src/otel', 'src/view'];

/** Field names only a provider's tool input has (Claude, Codex, OpenCode, Gemini spellings). */
const PROVIDER_KEYS = ['file_path', 'filePath', 'old_string', 'oldString', 'new_string', 'newString', 'notebook_path', 'notebookPath', 'target_file', 'old_str', 'new_str', 'replace_all', 'todos', 'new_source', 'cell_id'];
const NAMES = new RegExp(`\\b(${PROVIDER_KEYS.join('|')})\\b`);
/**
 * Generic words (`patch`, `command`, `content`, …) are fine as output fields (ACP v2's diff has a
 * `patch`), so they count only when read off an input: `input.patch`, `input?.command`,
 * `obj(part.input)?.content`, `rawInput['path']`.
 */
const GENERIC = ['patch', 'command', 'content', 'pattern', 'query', 'path', 'paths', 'offset', 'line', 'edits', 'changes', 'items', 'plan', 'description', 'cwd', 'url'];
const INPUT_READ = new RegExp(`\\b(?:raw)?[iI]nput\\b\\)?\\??\\.(?:${GENERIC.join('|')})\\b|\\b(?:raw)?[iI]nput\\b\\)?\\??\\.?\\[['"\`](?:${GENERIC.join('|')})['"\`]\\]`);

function providerFieldHits(text: string): string[] {
  const hits: string[] = [];
  text.split('\n').forEach((line, i) => {
    const m = NAMES.exec(line) ?? INPUT_READ.exec(line);
    if (m) hits.push(`${i + 1}: ${m[0]}`);
  });
  return hits;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|js|mjs|css|html)$/.test(name)) out.push(p);
  }
  return out;
}

describe('no output encoder reads provider input fields', () => {
  it('the grep finds each pattern when it is there (control)', () => {
    expect(providerFieldHits('const p = text(input.file_path);')).toEqual(['1: file_path']);
    expect(providerFieldHits('x\nconst o = obj(part.input)?.oldString;')).toEqual(['2: oldString']);
    expect(providerFieldHits('const list = i?.todos;')).toEqual(['1: todos']);
    expect(providerFieldHits('const patch = obj(part.input)?.patch;')).toEqual(['1: input)?.patch']);
    expect(providerFieldHits('const c = obj(update.rawInput)?.command;')).toEqual(['1: rawInput)?.command']);
    expect(providerFieldHits("const c = input['content'];")).toEqual(["1: input['content']"]);
    expect(providerFieldHits('const c = input.command;')).toEqual(['1: input.command']);
    // Not a read of the input: an output field named like one, and the input passed on whole.
    expect(providerFieldHits("out.patch = { format: 'git_patch', text };\nrawInput: part.input,\nconst command = part.metadata?.command?.command;")).toEqual([]);
  });

  it.each(OUTPUT_DIRS)('%s holds none', (dir) => {
    const files = sources(join(ROOT, dir));
    expect(files.length).toBeGreaterThan(0);
    const hits = files.flatMap((f) => providerFieldHits(readFileSync(f, 'utf8')).map((h) => `${relative(ROOT, f)}:${h}`));
    expect(hits).toEqual([]);
  });
});
