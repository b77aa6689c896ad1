// The one output path points one way: the output formats (ACP, UI, AI SDK, AG-UI, OTel, the viewer,
// and src/outputs, which maps `--to` names to them) import the pipeline's encoder interface, and
// the pipeline never imports them, directly or through another module. Imports are read with the
// TypeScript compiler's own pre-processor (static, type-only, re-exports and dynamic `import()`).
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const PIPELINE = join(SRC, 'pipeline');
const OUTPUTS = ['acp', 'ui', 'ai-sdk', 'ag-ui', 'otel', 'view', 'outputs'].map((d) => join(SRC, d));

/** Relative module specifiers of a source text, resolved to the .ts files they name. */
function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => {
      const base = resolve(dirname(file), name).replace(/\.js$/, '');
      for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
      return `${base}.ts`;
    });
}

const isOutput = (file: string) => OUTPUTS.some((d) => file === d || file.startsWith(d + sep));
/**
 * src/acp holds the ACP wire format both ways: its decoder (decode.ts and the wire helpers it uses),
 * which the ACP input adapter reads with, and its encoders. Through the input adapters the pipeline
 * reaches the decoder; it must never reach an encoder.
 */
const ACP_ENCODERS = ['encoder.ts', 'encoder-v2.ts', 'stream.ts', 'index.ts'].map((f) => join(SRC, 'acp', f));
const isEncoder = (file: string) => (file.startsWith(join(SRC, 'acp') + sep) ? ACP_ENCODERS.includes(file) : isOutput(file));

/** Every output encoder module a file reaches through relative imports, with the chain that gets there. */
function reachedOutputs(start: string, text = readFileSync(start, 'utf8')): string[] {
  const found: string[] = [];
  const seen = new Set<string>([start]);
  const queue: { file: string; chain: string[] }[] = importsOf(start, text).map((f) => ({ file: f, chain: [start, f] }));
  while (queue.length) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (isEncoder(file)) {
      found.push(chain.map((f) => relative(ROOT, f)).join(' → '));
      continue;
    }
    if (!existsSync(file)) continue;
    for (const next of importsOf(file, readFileSync(file, 'utf8'))) queue.push({ file: next, chain: [...chain, next] });
  }
  return found;
}

function pipelineFiles(dir = PIPELINE): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? pipelineFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('import boundary of src/pipeline', () => {
  it('no module of src/pipeline imports an output format, nor reaches an output encoder through other modules', () => {
    const files = pipelineFiles();
    // The pipeline's modules are all read: normalize.ts, encoder.ts and live.ts among them.
    expect(files.map((f) => relative(PIPELINE, f))).toEqual(expect.arrayContaining(['normalize.ts', 'encoder.ts', 'live.ts']));
    const direct = files.flatMap((f) => importsOf(f, readFileSync(f, 'utf8')).filter(isOutput).map((to) => `${relative(ROOT, f)} → ${relative(ROOT, to)}`));
    expect(direct).toEqual([]);
    expect(files.flatMap((f) => reachedOutputs(f))).toEqual([]);
  });

  it('the output formats import the pipeline encoder interface (the dependency points their way)', () => {
    for (const module of ['acp/stream.ts', 'ui/stream.ts', 'ai-sdk/index.ts', 'ag-ui/encoder.ts', 'otel/otlp.ts']) {
      const file = join(SRC, module);
      expect(importsOf(file, readFileSync(file, 'utf8')), module).toContain(join(PIPELINE, 'encoder.ts'));
    }
  });

  it('control: the check catches a direct import, a type-only one, a dynamic one and one through another module', () => {
    const at = join(PIPELINE, 'normalize.ts');
    // What src/pipeline/normalize.ts imported before the one output path.
    expect(reachedOutputs(at, "import { AcpEncoder, type AcpFrame } from '../acp/encoder.js';\n")).toEqual(['src/pipeline/normalize.ts → src/acp/encoder.ts']);
    expect(reachedOutputs(at, "import type { AgUiEvent } from '../ag-ui/types.js';\n")).toEqual(['src/pipeline/normalize.ts → src/ag-ui/types.ts']);
    expect(reachedOutputs(at, "const m = await import('../otel/index.js');\n")).toEqual(['src/pipeline/normalize.ts → src/otel/index.ts']);
    expect(reachedOutputs(at, "export { toUiPart } from '../ui/to-ui.js';\n")).toEqual(['src/pipeline/normalize.ts → src/ui/to-ui.ts']);
    // Through a module outside the formats: src/outputs/pipeline.ts reaches src/acp.
    expect(reachedOutputs(join(SRC, 'cli', 'x.ts'), "import { encoderFor } from '../outputs/pipeline.js';\n")).toEqual(['src/cli/x.ts → src/outputs/pipeline.ts']);
    const viaCli = reachedOutputs(at, "import { loadEncoder } from '../cli/encoders.js';\n");
    expect(viaCli.some((c) => c.startsWith('src/pipeline/normalize.ts → src/cli/encoders.ts → '))).toBe(true);
  });
});
