// Every relative link in README.md and docs/ resolves, and so does every `docs/…` citation in code,
// so a moved file or a renamed section breaks this test instead of a reader's click.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, checkTarget, citationsOf, codeFiles, linksOf, markdownFiles, slug, type Broken } from './links.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const show = (b: Broken[]) => b.map((x) => `${x.from}:${x.line} ${x.target}: ${x.reason}`).join('\n');

describe('GitHub heading slugs', () => {
  it.each([
    ['Two commands for a fresh clone', 'two-commands-for-a-fresh-clone'],
    ['Costs (`npm run bench -- exec-boundary`)', 'costs-npm-run-bench----exec-boundary'],
    ['`_meta` rules', '_meta-rules'],
    ['Policy gates (plane 2)', 'policy-gates-plane-2'],
    ['Output, metadata, timing', 'output-metadata-timing'],
    ['ToolPath: the one path rule', 'toolpath-the-one-path-rule'],
    ['Checking it: `npm run fuzz` and the memory bench', 'checking-it-npm-run-fuzz-and-the-memory-bench'],
    ['AI SDK 6 UI message chunks (`--to ai-sdk-stream`)', 'ai-sdk-6-ui-message-chunks---to-ai-sdk-stream'],
    ['Where is the rule for X', 'where-is-the-rule-for-x'],
    ['See [the API](api.md) — now', 'see-the-api--now'],
  ])('%s → #%s', (heading, expected) => expect(slug(heading)).toBe(expected));

  it('numbers repeated headings and ignores headings inside code fences', () => {
    const anchors = anchorsOf('# A\n## Usage\n```sh\n# not a heading\n```\n## Usage\n<a name="x"></a>\n');
    expect([...anchors]).toEqual(['a', 'usage', 'usage-1', 'x']);
  });
});

describe('link extraction', () => {
  it('finds inline links, images and reference definitions, not code or external URLs', () => {
    const text = 'See [a](a.md#x), ![i](img.png) and `[no](code.md)`.\n[ref]: docs/b.md\n[web](https://x.org)\n```\n[fenced](f.md)\n```\n';
    expect(linksOf(text, 'README.md').map((l) => [l.line, l.target])).toEqual([[1, 'a.md#x'], [1, 'img.png'], [2, 'docs/b.md']]);
  });

  it('reports a missing file, a missing heading and a path that leaves the repository', () => {
    expect(checkTarget(ROOT, 'README.md', 'docs/nope.md')).toMatch(/no such file: docs\/nope\.md/);
    expect(checkTarget(ROOT, 'docs/contract.md', 'providers/acp.md#no-such-heading')).toMatch(/no heading #no-such-heading in docs\/providers\/acp\.md/);
    expect(checkTarget(ROOT, 'README.md', '../outside.md')).toMatch(/outside the repository/);
    expect(checkTarget(ROOT, 'docs/contract.md', 'providers/acp.md#kind-mapping')).toBeUndefined();
    expect(checkTarget(ROOT, 'docs/contract.md', '#spec-names')).toBeUndefined();
  });

  it('finds docs/ citations in code, with their anchors', () => {
    const code = "// see docs/providers/claude.md#tool-names\nconst x = 'mydocs/a.md'; // docs/outputs.md.\n";
    expect(citationsOf(code, 'src/x.ts').map((l) => [l.line, l.target])).toEqual([[1, 'docs/providers/claude.md#tool-names'], [2, 'docs/outputs.md']]);
  });
});

describe('the repository', () => {
  const docs = markdownFiles(ROOT);

  it('has the README and the reference pages', () => {
    for (const f of ['README.md', 'docs/contract.md', 'docs/architecture.md', 'docs/benchmarks.md', 'docs/providers/claude.md', 'docs/providers/codex.md', 'docs/providers/opencode.md', 'docs/providers/acp.md']) expect(docs).toContain(f);
  });

  it('keeps README.md at 300 lines at most', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(301);
  });

  it('every relative link in README.md and docs/ resolves, anchors included', () => {
    const links = docs.flatMap((f) => linksOf(read(f), f));
    expect(links.length).toBeGreaterThan(50);
    const broken = links.flatMap((l) => {
      const reason = checkTarget(ROOT, l.from, l.target);
      return reason ? [{ ...l, reason }] : [];
    });
    expect(show(broken)).toBe('');
  });

  it('every docs/ citation in code resolves, anchors included', () => {
    const files = codeFiles(ROOT, ['src', 'codegen', 'bench', 'fuzz', 'test', 'scripts', 'clients'], ['test/docs']);
    const cites = files.flatMap((f) => citationsOf(read(f), f));
    expect(cites.length).toBeGreaterThan(10);
    const broken = cites.flatMap((c) => {
      const reason = checkTarget(ROOT, 'README.md', c.target);
      return reason ? [{ ...c, reason }] : [];
    });
    expect(show(broken)).toBe('');
  });

  it('no code comment cites notes/ outside the repository', () => {
    const files = codeFiles(ROOT, ['src', 'codegen', 'bench', 'fuzz', 'test', 'scripts', 'clients'], ['test/docs']);
    const cites = files.flatMap((f) =>
      read(f).split('\n').flatMap((line, i) => (/(^|[^\w/.-])notes\/[\w-]+\.md/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(cites.join('\n')).toBe('');
  });
});
