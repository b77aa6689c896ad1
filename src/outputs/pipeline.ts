// The streaming pipeline with every built-in output format: `to` picks the stream encoder
// (src/pipeline/encoder.ts) that writes the records. The pipeline itself (src/pipeline/normalize.ts)
// knows only parts and events; this module maps the other names to their encoders, so the
// dependency points one way: output formats → the pipeline's encoder interface, never the reverse.
import type { NormalizedToolPart, ToolEvent, UiToolPart } from '../contract/index.js';
import type { AdapterDefinition } from '../adapters/types.js';
import type { AcpFrame } from '../acp/encoder.js';
import type { AcpV2Frame } from '../acp/encoder-v2.js';
import { acpStreamEncoder, type AcpNotification } from '../acp/stream.js';
import { uiStreamEncoder } from '../ui/stream.js';
import type { UiStateNames } from '../ui/to-ui.js';
// The ecosystem formats' records (type-only imports: their encoders load only when chosen).
import type { AiSdkChunk, AiSdkToolPart } from '../ai-sdk/types.js';
import type { AgUiEvent } from '../ag-ui/types.js';
import type { ExportTraceServiceRequest } from '../otel/otlp.js';
import { eventsEncoder, partsEncoder, type StreamEncoderFactory } from '../pipeline/encoder.js';
import { NormalizePipeline as StreamPipeline, type EncodedFormat, type NormalizeOptions as CoreOptions, type OutputFormat, type PipelineSinks as CoreSinks } from '../pipeline/normalize.js';

export type { AcpNotification } from '../acp/stream.js';
export type { EncodedFormat, OutputFormat, Summary, ValidateMode } from '../pipeline/normalize.js';

export const ENCODED_FORMATS: ReadonlySet<string> = new Set<EncodedFormat>(['ai-sdk', 'ai-sdk-stream', 'ag-ui', 'otel']);

/** What each output format hands to `PipelineSinks.output`. */
export interface OutputRecords {
  parts: NormalizedToolPart;
  events: ToolEvent;
  /** A notification, or the bare params with `jsonRpc: false`. */
  acp: AcpNotification | AcpFrame | AcpV2Frame;
  ui: UiToolPart;
  'ai-sdk': AiSdkToolPart;
  'ai-sdk-stream': AiSdkChunk;
  'ag-ui': AgUiEvent;
  otel: ExportTraceServiceRequest;
}

export type OutputRecord<F extends OutputFormat = OutputFormat> = OutputRecords[F];

export interface NormalizeOptions<F extends OutputFormat = OutputFormat> extends Omit<CoreOptions<F>, 'to'> {
  to: F;
  uiStates?: UiStateNames;
  /** ACP output: the client renders display-only terminals (see AcpEncoderOptions.terminal). */
  acpTerminal?: boolean;
  /** ACP output: protocol version 1 (default) or 2, the draft (see src/acp/encoder-v2.ts). */
  acpVersion?: 1 | 2;
  /** Wrap ACP params in a JSON-RPC `session/update` notification (default true). */
  jsonRpc?: boolean;
  /** The encoder of an encoded format (ai-sdk, ai-sdk-stream, ag-ui, otel): required for those, refused for the others. */
  encoder?: StreamEncoderFactory;
}

export interface PipelineSinks<F extends OutputFormat = OutputFormat> extends Omit<CoreSinks<F>, 'output'> {
  /** One output record of the chosen format (a part, event, ACP message or UI part), e.g. to print as a JSON line. */
  output(record: OutputRecord<F>): void;
}

type BuiltIn = Exclude<OutputFormat, EncodedFormat>;
type FormatOptions = Omit<NormalizeOptions, 'to' | 'encoder'>;

/** The built-in formats' encoders, from the options that shape them. */
const BUILT_IN: Record<BuiltIn, (o: FormatOptions) => StreamEncoderFactory> = {
  parts: () => partsEncoder,
  events: () => eventsEncoder,
  acp: (o) => acpStreamEncoder({ output: o.output, cwd: o.cwd, terminal: o.acpTerminal, version: o.acpVersion, jsonRpc: o.jsonRpc }),
  ui: (o) => uiStreamEncoder({ states: o.uiStates }),
};

/**
 * The encoder that writes `to` (for an encoded format, the one given). The same for every path that
 * prints: `normalize`, `record`, `replay` (final parts only) and the library.
 */
export function encoderFor(to: OutputFormat, options: FormatOptions & { encoder?: StreamEncoderFactory }): StreamEncoderFactory {
  if (Object.hasOwn(BUILT_IN, to)) {
    // An encoder beside a built-in format was once a hidden second output path (events plus an observer).
    if (options.encoder) throw new Error(`options.encoder is for the encoded formats (${[...ENCODED_FORMATS].join(', ')}); --to ${to} has its own`);
    return BUILT_IN[to as BuiltIn](options);
  }
  if (!options.encoder) throw new Error(`--to ${to} needs its encoder (options.encoder)`);
  return options.encoder;
}

/** The streaming pipeline (src/pipeline/normalize.ts) writing the format `to`. */
export class NormalizePipeline<F extends OutputFormat = OutputFormat> extends StreamPipeline<F> {
  constructor(definition: AdapterDefinition, options: NormalizeOptions<F>, sinks: PipelineSinks<F>) {
    super(definition, { ...options, encoder: encoderFor(options.to, options) }, sinks as unknown as CoreSinks<F>);
  }
}
