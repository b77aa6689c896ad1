// The official ACP v1 schema from @agentclientprotocol/sdk, compiled once. Frames are checked on
// `params` against $defs/SessionNotification: validating a whole JSON-RPC message proves nothing
// (docs/providers/acp.md#checking-frames-against-the-official-schema).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);
const schemaPath = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...schema, $id: 'acp-v1' });
const validateNotification = ajv.getSchema('acp-v1#/$defs/SessionNotification')!;

/** Errors of `params` against the official SessionNotification definition ([] when valid). */
export function officialAcpErrors(params: unknown): string[] {
  if (validateNotification(params)) return [];
  return (validateNotification.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}

/** Accepts a JSON-RPC notification or bare params. */
export function paramsOf(frame: unknown): unknown {
  const f = frame as { method?: string; params?: unknown };
  return f && f.method === 'session/update' ? f.params : frame;
}
