// Telling the provider of a live stream. `toolnorm normalize` decides a file's format from its first
// 20 non-empty lines (or the whole input when shorter); a live stream cannot wait for 20 lines, so
// `record` decides at the first line that is clear evidence (a sniffer score of 0.9 or more: Codex's
// `thread.started`, Claude Code's `system/init`, an ACP `session/update`), and otherwise where
// normalize would. Once the 20 lines (or the end) are there, it checks that normalize's rule picks
// the same format for the raw file, and reports it when not, so a later `normalize RAWFILE` is
// never silently read otherwise.
import { detectAdapter } from '../adapters/registry.js';
import type { AdapterDefinition } from '../adapters/types.js';

/** The sample `normalize` decides on. */
export const SNIFF_LINES = 20;
/** A score this high is clear evidence: no other format's sniffer gives it on the same line. */
export const CLEAR_EVIDENCE = 0.9;

/** normalize's rule: the sample's lines, or, when they are the whole input, the lines read as one document. */
export function detectLikeNormalize(sample: readonly string[], whole: boolean, file: string): AdapterDefinition | undefined {
  const found = detectAdapter({ lines: sample, file });
  if (found) return found.adapter;
  if (whole && sample.length > 1) return detectAdapter({ lines: [sample.join('\n')], file })?.adapter;
  return undefined;
}

export type SniffResult =
  /** Not decided yet: hold the line. */
  | { decided: false }
  /** Decided (undefined: no format knows these lines). */
  | { decided: true; adapter: AdapterDefinition | undefined };

export class LiveSniffer {
  private readonly sample: string[] = [];
  private chosen: AdapterDefinition | undefined;
  private decided = false;
  private checked = false;

  constructor(private readonly file: string) {}

  /** One line of the stream; says when the format is decided (only once). */
  line(text: string): SniffResult {
    if (this.checked || !text.trim()) return { decided: false };
    this.sample.push(text);
    if (!this.decided) {
      const found = detectAdapter({ lines: this.sample, file: this.file });
      if (found && found.score >= CLEAR_EVIDENCE) return this.decide(found.adapter);
      if (this.sample.length >= SNIFF_LINES) return this.decide(detectLikeNormalize(this.sample, false, this.file));
    }
    return { decided: false };
  }

  /** End of the stream: decides on what came, if not yet decided. */
  end(): SniffResult {
    if (this.decided) return { decided: false };
    return this.decide(this.sample.length ? detectLikeNormalize(this.sample, true, this.file) : undefined);
  }

  /**
   * Once normalize's sample is complete (20 non-empty lines, or the end of the stream): the format
   * normalize would pick for the raw file when it differs from the one chosen live, else undefined.
   */
  disagreement(atEnd: boolean): { live: AdapterDefinition | undefined; normalize: AdapterDefinition | undefined } | undefined {
    if (this.checked || !this.decided || (!atEnd && this.sample.length < SNIFF_LINES)) return undefined;
    this.checked = true;
    const normalize = this.sample.length ? detectLikeNormalize(this.sample.slice(0, SNIFF_LINES), atEnd && this.sample.length < SNIFF_LINES, this.file) : undefined;
    return normalize?.id === this.chosen?.id ? undefined : { live: this.chosen, normalize };
  }

  private decide(adapter: AdapterDefinition | undefined): SniffResult {
    this.decided = true;
    this.chosen = adapter;
    return { decided: true, adapter };
  }
}
