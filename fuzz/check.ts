// What every run must keep, however its input is broken (issue 16): no crash, no stack trace,
// every output line valid, and the summary's counts reconciled with what was read and printed.
// Used by `npm run fuzz` on the CLI's streams and by the fuzz property suite on the pipeline's sinks.
import type { Summary as PipelineSummary } from '../src/pipeline/normalize.js';
import { issuesOfAcpSessionUpdateParams, issuesOfDiagnostic, issuesOfNormalizedToolPart } from '../src/contract/index.js';

export type FuzzOutput = 'parts' | 'acp';

/** Diagnostic codes that mean toolnorm itself broke, never the input. */
export const BUG_CODES = new Set(['adapter_error', 'invalid_event', 'invalid_frame']);

/** The fields of the CLI's `--summary` line the checks read. */
export type Summary = Pick<PipelineSummary, 'inputLines' | 'parts' | 'byKind' | 'byState' | 'diagnostics' | 'invalidEvents'>;

/** Collects the problems of one run, line by line, so big outputs are never held whole. */
export class RunChecker {
  readonly problems: string[] = [];
  outputLines = 0;
  diagnosticLines = 0;
  summary?: Summary;
  readonly codes = new Map<string, number>();

  constructor(private readonly to: FuzzOutput) {}

  private problem(p: string): void {
    if (this.problems.length < 20) this.problems.push(p);
  }

  stdoutLine(line: string): void {
    if (!line) return;
    this.outputLines++;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return this.problem(`invalid output line (not JSON): ${line.slice(0, 200)}`);
    }
    this.outputRecord(v);
  }

  outputRecord(v: unknown): void {
    const issues = this.to === 'parts' ? issuesOfNormalizedToolPart(v) : issuesOfAcpSessionUpdateParams((v as { params?: unknown }).params);
    if (issues.length) this.problem(`invalid output line: ${issues.slice(0, 3).map((i) => `${i.instancePath} ${i.message}`).join('; ')}: ${JSON.stringify(v).slice(0, 200)}`);
  }

  stderrLine(line: string): void {
    if (!line) return;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return this.problem(/^\s+at |Error\b|error:/.test(line) ? `stack trace: ${line.slice(0, 300)}` : `unexpected stderr: ${line.slice(0, 300)}`);
    }
    if ('inputLines' in v) {
      this.summary = v as unknown as Summary;
      return;
    }
    this.diagnostic(v);
  }

  diagnostic(v: unknown): void {
    this.diagnosticLines++;
    const code = String((v as { code?: unknown }).code);
    this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
    const issues = issuesOfDiagnostic(v);
    if (issues.length) this.problem(`invalid diagnostic: ${issues.slice(0, 3).map((i) => `${i.instancePath} ${i.message}`).join('; ')}`);
    if (BUG_CODES.has(code)) this.problem(`${code}: ${String((v as { message?: unknown }).message).slice(0, 300)}`);
  }

  /** After the run: exit status and the summary against what was read and printed. */
  finish(exitCode: number | null, inputLines: number): string[] {
    if (exitCode !== 0) this.problem(`crash: exit status ${exitCode}`);
    const s = this.summary;
    if (!s) {
      this.problem('no summary line');
      return this.problems;
    }
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    if (s.inputLines !== inputLines) this.problem(`summary: inputLines ${s.inputLines}, but the input has ${inputLines} lines`);
    if (sum(s.byState) !== s.parts) this.problem(`summary: byState adds up to ${sum(s.byState)}, parts is ${s.parts}`);
    if (sum(s.byKind) !== s.parts) this.problem(`summary: byKind adds up to ${sum(s.byKind)}, parts is ${s.parts}`);
    if (this.to === 'parts' && this.outputLines !== s.parts) this.problem(`summary: parts ${s.parts}, but ${this.outputLines} parts were printed`);
    if (s.diagnostics !== this.diagnosticLines) this.problem(`summary: diagnostics ${s.diagnostics}, but ${this.diagnosticLines} were printed`);
    if (s.invalidEvents !== 0) this.problem(`summary: ${s.invalidEvents} invalid events`);
    return this.problems;
  }
}
