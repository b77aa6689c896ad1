// `--from auto` and the lines of ACP input: is this ACP traffic? A session/update or permission
// request, or bare update params, in the first lines decides the file; each line is then ACP's
// when it is one of ACP's methods or a JSON-RPC response.
import { obj, type Obj } from '../../fields.js';

/** ACP's own methods (client and agent side, and `_`-prefixed extensions). */
const ACP_METHOD = /^(?:initialize|authenticate|(?:session|fs|terminal)\/.+|_.+)$/;

/** An ACP JSON-RPC message: one of ACP's methods, or a response (ACP always sends `jsonrpc`). */
export function isAcpTraffic(m: Obj): boolean {
  if (typeof m.method === 'string') return ACP_METHOD.test(m.method);
  return m.jsonrpc === '2.0' && m.id !== undefined && ('result' in m || 'error' in m);
}

/** How sure (0..1) the sample is ACP, from its first 20 lines. */
export function sniffAcp({ lines }: { lines: readonly string[] }): number {
  for (const l of lines.slice(0, 20)) {
    try {
      const v = JSON.parse(l) as Obj;
      if (v.method === 'session/update' || v.method === 'session/request_permission') return 0.95;
      if (typeof v.sessionId === 'string' && obj(v.update)?.sessionUpdate) return 0.9;
    } catch {
      /* not JSON: not ours */
    }
  }
  return 0;
}
