// The ecosystem output formats of `normalize` and `replay`: each loads its encoder module only
// when asked for, so the CLI's start-up and the core stay light.
import type { EncodedFormat } from '../outputs/pipeline.js';
import type { StreamEncoderFactory } from '../pipeline/encoder.js';
import { UsageError } from './commands/types.js';

export const ENCODER_OPTIONS = {
  'ai-sdk-parts': { type: 'string', default: 'dynamic' },
  'ai-sdk-version': { type: 'string', default: '6' },
  'otel-content': { type: 'boolean', default: false },
} as const;

export const ENCODER_USAGE = `  --ai-sdk-parts dynamic|static   with --to ai-sdk(-stream): "dynamic-tool" parts (default) or "tool-<name>" parts
  --ai-sdk-version 6|7  with --to ai-sdk-stream: the AI SDK major the stream is for (default 6); 7 sends a
                      denial as the tool-approval-response chunk AI SDK 6's chunk schema refuses
  --otel-content      with --to otel: also record gen_ai.tool.call.arguments/result (opt-in: may be sensitive)`;

export interface EncoderFlags { 'ai-sdk-parts'?: string; 'ai-sdk-version'?: string; 'otel-content'?: boolean }

const LOADERS: Record<EncodedFormat, (f: EncoderFlags) => Promise<StreamEncoderFactory>> = {
  'ai-sdk': async (f) => (await import('../ai-sdk/index.js')).aiSdkPartEncoder({ partType: partType(f) }),
  'ai-sdk-stream': async (f) => (await import('../ai-sdk/index.js')).aiSdkStreamEncoder({ partType: partType(f), version: aiSdkVersion(f) }),
  'ag-ui': async () => (await import('../ag-ui/index.js')).agUiEncoder(),
  otel: async (f) => (await import('../otel/index.js')).otlpEncoder({ captureContent: f['otel-content'] === true }),
};

function partType(f: EncoderFlags): 'dynamic' | 'static' {
  const v = f['ai-sdk-parts'] ?? 'dynamic';
  if (v !== 'dynamic' && v !== 'static') throw new UsageError('--ai-sdk-parts must be dynamic or static');
  return v;
}

function aiSdkVersion(f: EncoderFlags): 6 | 7 {
  const v = f['ai-sdk-version'] ?? '6';
  if (v !== '6' && v !== '7') throw new UsageError('--ai-sdk-version must be 6 or 7');
  return v === '7' ? 7 : 6;
}

export const isEncodedFormat = (to: string): to is EncodedFormat => Object.hasOwn(LOADERS, to);

export const ENCODED_FORMAT_NAMES = Object.keys(LOADERS) as EncodedFormat[];

export async function loadEncoder(to: EncodedFormat, flags: EncoderFlags): Promise<StreamEncoderFactory> {
  return LOADERS[to](flags);
}
