// App-server traffic arrives as bare JSON-RPC messages, or wrapped by whatever recorded it
// (`{"dir":"in","msg":{…}}` from our capture; other recorders use other keys). This finds the
// message and, when the recorder said so, its direction.
import { obj, text, type Obj } from '../fields.js';
import { parseBounded } from '../../../events/depth.js';

export type Direction = 'in' | 'out';

export interface RpcLine {
  msg: Obj;
  /** `in`: server → client. `out`: client → server. Undefined when the recording does not say. */
  dir?: Direction;
}

export function isRpc(v: unknown): v is Obj {
  const o = obj(v);
  if (!o) return false;
  if (typeof o.method === 'string') return true;
  return o.id !== undefined && ('result' in o || 'error' in o);
}

const WRAPPER_KEYS = ['msg', 'message', 'payload', 'data', 'frame', 'json', 'raw', 'line', 'value', 'body', 'event'];
const DIR_KEYS = ['dir', 'direction', 'from', 'source', 'stream', 'type'];
const IN = /^(in|incoming|recv|received|inbound|server|server->client|server_to_client|fromserver|stdout|response)$/i;
const OUT = /^(out|outgoing|send|sent|outbound|client|client->server|client_to_server|toserver|stdin|request)$/i;

function directionOf(wrapper: Obj): Direction | undefined {
  for (const k of DIR_KEYS) {
    const v = text(wrapper[k]);
    if (!v) continue;
    if (IN.test(v)) return 'in';
    if (OUT.test(v)) return 'out';
  }
  return undefined;
}

/** The JSON-RPC message of a line, unwrapped once from a recorder envelope if needed. */
export function rpcOf(o: Obj): RpcLine | undefined {
  if (isRpc(o)) return { msg: o };
  for (const k of WRAPPER_KEYS) {
    let v: unknown = o[k];
    if (typeof v === 'string' && v.trimStart().startsWith('{')) {
      try {
        v = parseBounded(v);
      } catch {
        continue;
      }
    }
    if (isRpc(v)) {
      const dir = directionOf(o);
      return dir ? { msg: v, dir } : { msg: v };
    }
  }
  return undefined;
}
