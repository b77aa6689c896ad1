// The official ACP v2 draft schema from @agentclientprotocol/sdk (schema/v2/schema.json), compiled
// once. Frames are checked on `params` against $defs/UpdateSessionNotification (v2's name for
// v1's SessionNotification), for the reason acp-schema.ts gives.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@agentclientprotocol/sdk/schema/v2/schema.json'), 'utf8')) as Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...schema, $id: 'acp-v2' });
const validate = ajv.getSchema('acp-v2#/$defs/UpdateSessionNotification')!;

/** Errors of `params` against the official v2 UpdateSessionNotification ([] when valid). */
export function officialAcpV2Errors(params: unknown): string[] {
  if (validate(params)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}

/** Checks one definition of the v2 schema (e.g. `ListSessionsResponse`). */
export function officialAcpV2DefErrors(def: string, value: unknown): string[] {
  const v = ajv.getSchema(`acp-v2#/$defs/${def}`)!;
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}
