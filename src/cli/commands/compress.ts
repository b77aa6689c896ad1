// `toolnorm compress`: one text in (a file or stdin, streamed), the compressed text out on stdout
// and one stats JSON line on stderr. Memory is bounded by the budget, not the input size.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ContractError, type CompressionStep, type OutputCompressionSpec, type TokenEstimator } from '../../contract/index.js';
import { CompressionStream, DEFAULT_SPECS, MARKER_PLACEHOLDERS, SpecError, checkSpec, loadExactEstimator } from '../../compress/index.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { OutputError } from '../output-errors.js';
import { stdinIsPiped } from '../inputs.js';

/** Without --spec: Codex's budget with toolnorm's neutral marker, which fits any budget kind. */
const CLI_SPEC: OutputCompressionSpec = { id: 'cli', budget: { maxTokens: 10_000 }, strategy: [{ type: 'head_tail', headRatio: 0.5 }], estimator: 'bytes4' };
const STEP_NAMES: readonly CompressionStep['type'][] = ['ansi_strip', 'collapse_repeats', 'json_summary', 'head_tail', 'head', 'tail'];
const BUDGET_FLAGS = { 'max-bytes': 'maxBytes', 'max-tokens': 'maxTokens', 'max-lines': 'maxLines' } as const;

const USAGE = `Usage: toolnorm compress [--spec ID|FILE.json] [--max-bytes N | --max-tokens N | --max-lines N] [--strategy S] [options] [FILE|-]

Compresses one text (FILE, or - or no FILE with stdin piped: stdin) the way toolnorm compresses a tool output, streaming:
memory is bounded by the budget, whatever the input size. Prints the compressed text on stdout
(the original, unchanged, when it already fits) and one JSON line of stats on stderr: compressed,
specId, strategy, estimator, original and kept bytes, lines and tokens, omittedLines, omittedBytes
and the sha256 of the original.

Options:
  --spec ID|FILE     a default spec (${DEFAULT_SPECS.map((s) => s.id).join(', ')}) or a JSON file holding an
                     OutputCompressionSpec; without it: head_tail at 10,000 tokens, counted as
                     ceil(bytes/4) (the bytes4 estimator)
  --max-bytes N      budget in UTF-8 bytes  \\  any of these replaces the spec's budget;
  --max-tokens N     budget in tokens        > when several are given, every one applies
  --max-lines N      budget in lines        /
  --strategy S       steps joined by +, replacing the spec's: ${STEP_NAMES.join(', ')}
                     (e.g. ansi_strip+collapse_repeats+head_tail)
  --head-ratio R     share of the budget for the head with head_tail, 0..1 (default 0.5)
  --estimator E      bytes4 (ceil(bytes/4), default) or exact (o200k, needs gpt-tokenizer)
  --marker T         omission marker; placeholders ${MARKER_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}

Exit: 0, 1 when the input or spec file cannot be read, the output cannot be written or the exact
estimator is unavailable, 2 on bad usage or an invalid spec, 141 (quietly) when the reader of stdout goes away.`;

function positiveInt(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) throw new UsageError(`--${flag} must be a positive integer, got "${value}"`);
  return Number(value);
}

function parseStrategy(text: string): CompressionStep[] {
  const names = text.split(/[+,]/).map((s) => s.trim()).filter(Boolean);
  if (!names.length) throw new UsageError('--strategy needs at least one step');
  return names.map((name) => {
    if (!(STEP_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown strategy step "${name}"; expected ${STEP_NAMES.join(', ')}`);
    return { type: name } as CompressionStep;
  });
}

function baseSpec(id: string | undefined, cwd: string): OutputCompressionSpec {
  if (id === undefined) return CLI_SPEC;
  const known = DEFAULT_SPECS.find((s) => s.id === id);
  if (known) return known;
  if (!/\.json$/i.test(id)) throw new UsageError(`unknown spec "${id}"; expected ${DEFAULT_SPECS.map((s) => s.id).join(', ')} or a .json file`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(resolve(cwd, id), 'utf8'));
  } catch (err) {
    throw new Error(`cannot read spec ${id}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  return specOrUsage(value, id);
}

function specOrUsage(value: unknown, where: string): OutputCompressionSpec {
  try {
    return checkSpec(value);
  } catch (err) {
    if (err instanceof SpecError || err instanceof ContractError) throw new UsageError(`invalid spec (${where}): ${err.message}`);
    throw err;
  }
}

interface Values {
  spec?: string;
  'max-bytes'?: string;
  'max-tokens'?: string;
  'max-lines'?: string;
  strategy?: string;
  'head-ratio'?: string;
  estimator?: string;
  marker?: string;
}

/** The spec the flags describe: a base spec with whatever the command line replaces. */
export function specFromFlags(v: Values, cwd: string): OutputCompressionSpec {
  const base = baseSpec(v.spec, cwd);
  const spec: OutputCompressionSpec = structuredClone(base);
  let changed = false;
  const budget: OutputCompressionSpec['budget'] = {};
  for (const [flag, key] of Object.entries(BUDGET_FLAGS)) {
    const raw = v[flag as keyof typeof BUDGET_FLAGS];
    if (raw !== undefined) budget[key] = positiveInt(flag, raw);
  }
  if (Object.keys(budget).length) {
    spec.budget = budget;
    changed = true;
  }
  if (v.strategy !== undefined) {
    spec.strategy = parseStrategy(v.strategy);
    changed = true;
  }
  if (v['head-ratio'] !== undefined) {
    const r = Number(v['head-ratio']);
    if (v['head-ratio'].trim() === '' || !(r >= 0 && r <= 1)) throw new UsageError(`--head-ratio must be a number from 0 to 1, got "${v['head-ratio']}"`);
    const step = spec.strategy.find((s) => s.type === 'head_tail');
    if (!step) throw new UsageError('--head-ratio needs a head_tail step in the strategy');
    (step as { headRatio?: number }).headRatio = r;
    changed = true;
  }
  if (v.estimator !== undefined) {
    if (v.estimator !== 'bytes4' && v.estimator !== 'exact') throw new UsageError(`--estimator must be bytes4 or exact, got "${v.estimator}"`);
    spec.estimator = v.estimator as TokenEstimator;
    changed = true;
  }
  if (v.marker !== undefined) {
    spec.marker = v.marker;
    changed = true;
  }
  if (changed) {
    spec.id = v.spec === undefined ? 'cli' : `${base.id}+cli`;
    delete spec.description;
  }
  return specOrUsage(spec, 'command line');
}

function openInput(arg: string, io: { cwd: string; stdin: Readable }): { name: string; stream: Readable } {
  if (arg === '-') return { name: 'stdin', stream: io.stdin };
  const path = resolve(io.cwd, arg);
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new Error(`cannot read ${arg}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
  }
  if (isDir) throw new Error(`cannot read ${arg}: it is a directory; compress takes one file`);
  return { name: arg, stream: createReadStream(path) };
}

const write = (stream: NodeJS.WritableStream, text: string, label: string) => new Promise<void>((done, fail) => {
  // The failure is this command's output failing (OutputError): a closed pipe ends quietly.
  stream.write(text, (err) => (err ? fail(new OutputError(label, err)) : done()));
});

export const compressCommand: Command = {
  name: 'compress',
  summary: 'compress one tool output (file or stdin) to a byte, token or line budget; stats on stderr',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({
      args: io.argv,
      allowPositionals: true,
      options: {
        spec: { type: 'string' },
        'max-bytes': { type: 'string' },
        'max-tokens': { type: 'string' },
        'max-lines': { type: 'string' },
        strategy: { type: 'string' },
        'head-ratio': { type: 'string' },
        estimator: { type: 'string' },
        marker: { type: 'string' },
      },
    });
    // No FILE: a piped stdin is the input (`cmd | toolnorm compress`); a terminal is not.
    if (!parsed.positionals.length && stdinIsPiped(io.stdin)) parsed.positionals.push('-');
    if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length ? `expected one FILE or -, got ${parsed.positionals.length}` : 'missing FILE (or - for stdin, or pipe the text in)');
    let spec: OutputCompressionSpec;
    let input: { name: string; stream: Readable };
    try {
      spec = specFromFlags(parsed.values, io.cwd);
      if (spec.estimator === 'exact') await loadExactEstimator();
      input = openInput(parsed.positionals[0]!, io);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      io.stderr.write(`toolnorm compress: ${(err as Error).message}\n`);
      return 1;
    }
    const engine = new CompressionStream(spec);
    try {
      for await (const chunk of input.stream) engine.write(chunk as Buffer | string);
    } catch (err) {
      io.stderr.write(`toolnorm compress: cannot read ${input.name}: ${(err as Error).message}\n`);
      return 1;
    }
    const r = engine.end();
    await write(io.stdout, r.text, 'stdout');
    await write(io.stderr, `${JSON.stringify({ compressed: r.compressed, ...r.stats, sha256: r.sha256 })}\n`, 'stderr');
    return 0;
  },
};
