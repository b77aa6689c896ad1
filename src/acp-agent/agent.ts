// A read-only ACP agent on a newline-delimited JSON-RPC stream (stdio): it lists recorded
// sessions and replays one when a client loads it, so any ACP client (Zed, JetBrains…) can open
// a recorded Claude Code, Codex or OpenCode session. The version is negotiated at `initialize`:
// v1 clients get `session/list` + `session/load`, v2 (draft) clients `session/list` +
// `session/resume` with `replayFrom: {type: "start"}`. Prompts are refused with an error a
// person can read. No SDK at run time: the SDK is a dev dependency, and its client drives this
// agent in the tests.
import type { Readable, Writable } from 'node:stream';
import { readLines } from '../pipeline/lines.js';
import { obj, type Obj } from '../fields.js';
import type { AcpVersion, SessionSource } from './sources.js';

/** JSON-RPC and ACP error codes (schema ErrorCode). */
export const ERROR = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, notFound: -32002 } as const;

export const READ_ONLY_MESSAGE = 'toolnorm acp is read-only: it replays recorded sessions and cannot run prompts or start sessions. To continue this work, open it in the agent that recorded it (Claude Code, Codex or OpenCode).';

class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

export interface AgentInfo {
  name: string;
  version: string;
}

type Handler = (params: Obj, send: (msg: unknown) => Promise<void>) => Promise<unknown>;

export class ReadOnlyAgent {
  private version: AcpVersion | undefined;

  constructor(private readonly source: SessionSource, private readonly info: AgentInfo) {}

  /** Serves one connection until `input` ends. */
  async serve(input: Readable, output: Writable): Promise<void> {
    const send = (msg: unknown) => write(output, `${JSON.stringify(msg)}\n`);
    // Requests are answered in order: a load's notifications must all precede its response.
    for await (const line of readLines(input)) {
      if (!line.text.trim()) continue;
      let msg: Obj | undefined;
      try {
        msg = obj(JSON.parse(line.text));
      } catch {
        await send({ jsonrpc: '2.0', id: null, error: { code: ERROR.parse, message: `line ${line.line} is not JSON` } });
        continue;
      }
      if (!msg || typeof msg.method !== 'string') {
        // A response (we send no requests) or garbage: only a request with an id gets an answer.
        if (msg && 'id' in msg && !('result' in msg) && !('error' in msg)) await send({ jsonrpc: '2.0', id: msg.id ?? null, error: { code: ERROR.invalidRequest, message: 'a request needs a "method" string' } });
        continue;
      }
      const isRequest = 'id' in msg && (typeof msg.id === 'string' || typeof msg.id === 'number');
      try {
        const result = await this.dispatch(msg.method, obj(msg.params) ?? {}, send);
        if (isRequest) await send({ jsonrpc: '2.0', id: msg.id, result });
      } catch (e) {
        if (!isRequest) continue;
        const err = e instanceof RpcError ? e : new RpcError(ERROR.internal, `toolnorm acp: ${(e as Error).message}`);
        await send({ jsonrpc: '2.0', id: msg.id, error: { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) } });
      }
    }
  }

  private readonly handlers: Record<string, Handler> = {
    initialize: async (p) => this.initialize(p),
    'session/list': async (p) => this.list(p),
    'session/load': async (p, send) => {
      this.need(1, 'session/load');
      await this.replay(p, send);
      return {};
    },
    'session/resume': async (p, send) => {
      this.need(2, 'session/resume');
      const from = obj(p.replayFrom);
      if (p.replayFrom != null && from?.type !== 'start') throw new RpcError(ERROR.invalidParams, `replayFrom ${JSON.stringify(p.replayFrom)} is not supported: toolnorm acp replays from {"type": "start"} or not at all`);
      if (from) await this.replay(p, send);
      else await this.session(p);
      // v2: a current-state snapshot after the replay and before the response. A recording is over.
      await send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: p.sessionId, update: { sessionUpdate: 'state_update', state: 'idle' } } });
      return {};
    },
    'session/prompt': async (p) => {
      throw new RpcError(ERROR.methodNotFound, READ_ONLY_MESSAGE, { sessionId: p.sessionId ?? null, readOnly: true });
    },
    'session/new': async () => {
      throw new RpcError(ERROR.methodNotFound, READ_ONLY_MESSAGE, { readOnly: true });
    },
    'session/close': async () => ({}),
    'session/cancel': async () => undefined,
  };

  private dispatch(method: string, params: Obj, send: (msg: unknown) => Promise<void>): Promise<unknown> {
    const h = Object.hasOwn(this.handlers, method) ? this.handlers[method] : undefined;
    if (!h) return Promise.reject(new RpcError(ERROR.methodNotFound, `toolnorm acp does not implement ${method}`));
    if (method !== 'initialize' && this.version === undefined) return Promise.reject(new RpcError(ERROR.invalidRequest, `${method} before initialize: send initialize first`));
    return h(params, send);
  }

  private need(version: AcpVersion, method: string): void {
    if (this.version !== version) throw new RpcError(ERROR.methodNotFound, `${method} is an ACP v${version} method; this connection negotiated v${this.version}`);
  }

  /** The highest version both sides speak: 2 for a client asking 2 or more, else 1. */
  private initialize(p: Obj): unknown {
    const asked = p.protocolVersion;
    if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 0) throw new RpcError(ERROR.invalidParams, 'initialize needs an integer protocolVersion');
    this.version = asked >= 2 ? 2 : 1;
    if (this.version === 2) return { protocolVersion: 2, info: this.info, capabilities: { session: {} } };
    return { protocolVersion: 1, agentInfo: this.info, agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } }, authMethods: [] };
  }

  private async list(p: Obj): Promise<unknown> {
    if (p.cursor != null) throw new RpcError(ERROR.invalidParams, 'toolnorm acp lists every session on one page: there is no next cursor');
    const all = await this.source.list();
    const cwd = typeof p.cwd === 'string' ? p.cwd : undefined;
    return { sessions: cwd === undefined ? all : all.filter((s) => s.cwd === cwd) };
  }

  private async session(p: Obj): Promise<unknown[]> {
    if (typeof p.sessionId !== 'string') throw new RpcError(ERROR.invalidParams, 'sessionId must be a string');
    const frames = await this.source.frames(p.sessionId, this.version!);
    if (!frames) throw new RpcError(ERROR.notFound, `no recorded session ${p.sessionId} (session/list names the sessions toolnorm acp serves)`, { sessionId: p.sessionId });
    return frames;
  }

  private async replay(p: Obj, send: (msg: unknown) => Promise<void>): Promise<void> {
    for (const f of await this.session(p)) await send(f);
  }
}

/** Writes with backpressure: a session of many frames waits for the client to read. */
function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = out.write(text, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else out.once('drain', resolve);
  });
}
