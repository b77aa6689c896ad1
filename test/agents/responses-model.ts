// A scripted model behind a loopback OpenAI Responses API (`POST /v1/responses`, streamed as SSE),
// for running the real `codex` binary without any network: Codex's custom model provider points
// its base_url here. Each scenario is a table of turns; the turn a request is answering is told by
// the call ids of the tool outputs it carries back (`call_t<turn>_<n>`), so side requests and
// retries never shift the script. Serves 127.0.0.1 only, and refuses any other peer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One output item of a Responses API turn, as Codex reads it from `response.output_item.done`. */
export type ResponseItem = Record<string, unknown>;

export type Turn =
  /** Output items (tool calls and messages); every turn but the last has a tool call, so Codex comes back. */
  | { items: (turn: number) => ResponseItem[] }
  /** The response fails (as the real API does when the context is full). */
  | { fail: { code: string; message: string } };

const call = (turn: number, n: number) => `call_t${turn}_${n}`;

const functionCall = (name: string, args: unknown) => (turn: number, n = 0): ResponseItem => ({ type: 'function_call', name, call_id: call(turn, n), arguments: JSON.stringify(args) });
const shell = (cmd: string) => functionCall('exec_command', { cmd });
const message = (text: string): ResponseItem => ({ type: 'message', role: 'assistant', id: 'msg_final', content: [{ type: 'output_text', text }] });
const patch = (text: string) => (turn: number, n = 0): ResponseItem => ({ type: 'custom_tool_call', name: 'apply_patch', call_id: call(turn, n), input: text });

const ADD_HELLO = '*** Begin Patch\n*** Add File: hello.txt\n+hello from the loopback model\n*** End Patch\n';

/** The scripts. Commands only touch the agent's own working directory. */
export const SCENARIOS = {
  /** A command that fails (exit 2), a web search, a patch adding a file, a command reading it back, a plan, a final message. */
  tools: [
    { items: (t) => [
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: '**Looking around**' }] },
      functionCall('update_plan', { plan: [{ step: 'Look around', status: 'in_progress' }, { step: 'Write hello.txt', status: 'pending' }] })(t, 0),
      // One stream (2>&1): the agent's captured output then comes in one order on every run.
      shell('echo hi && ls /nonexistent_dir 2>&1')(t, 1),
    ] },
    { items: (t) => [
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'toolnorm record', queries: ['toolnorm record'] } },
      patch(ADD_HELLO)(t, 0),
    ] },
    { items: (t) => [
      shell('cat hello.txt')(t, 0),
      functionCall('update_plan', { plan: [{ step: 'Look around', status: 'completed' }, { step: 'Write hello.txt', status: 'completed' }] })(t, 1),
    ] },
    { items: () => [message('Wrote hello.txt.')] },
  ],
  /** The model fails on the first request: Codex reports the error and exits 1. */
  fail: [
    { fail: { code: 'context_length_exceeded', message: 'loopback model: the context window is full' } },
  ],
  /** A command that runs for ten minutes, so the agent can be interrupted while it runs. */
  'long-command': [
    { items: (t) => [shell('echo started && sleep 600 && echo finished')(t, 0)] },
    { items: () => [message('Finished waiting.')] },
  ],
} satisfies Record<string, Turn[]>;

export type ScenarioName = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

export interface ModelRequest {
  method: string;
  path: string;
  /** The turn answered (undefined for requests that are not a Responses call). */
  turn?: number;
  /** Tool outputs the request carried back, by call id. */
  outputs: Record<string, string>;
  tools: string[];
}

export interface ResponsesModel {
  /** `http://127.0.0.1:<port>/v1`, the provider's base_url. */
  baseUrl: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}

/** The turn a request answers: one past the highest turn whose call outputs it carries back. */
function turnOf(input: unknown[]): { turn: number; outputs: Record<string, string> } {
  let turn = 0;
  const outputs: Record<string, string> = {};
  for (const item of input) {
    const it = item as { type?: string; call_id?: string; output?: unknown };
    if ((it.type !== 'function_call_output' && it.type !== 'custom_tool_call_output') || typeof it.call_id !== 'string') continue;
    outputs[it.call_id] = typeof it.output === 'string' ? it.output : JSON.stringify(it.output);
    const m = /^call_t(\d+)_\d+$/.exec(it.call_id);
    if (m) turn = Math.max(turn, Number(m[1]) + 1);
  }
  return { turn, outputs };
}

const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };

function sse(events: Record<string, unknown>[]): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

function respond(script: readonly Turn[], turn: number, id: string): string {
  const step = script[Math.min(turn, script.length - 1)]!;
  const created = { type: 'response.created', response: { id } };
  if ('fail' in step) return sse([created, { type: 'response.failed', response: { id, error: step.fail } }]);
  return sse([created, ...step.items(turn).map((item) => ({ type: 'response.output_item.done', item })), { type: 'response.completed', response: { id, usage } }]);
}

const isLoopback = (address: string | undefined) => !!address && (address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1');

export async function startResponsesModel(scenario: ScenarioName, onRequest?: (r: ModelRequest) => void): Promise<ResponsesModel> {
  const script: readonly Turn[] = SCENARIOS[scenario];
  const requests: ModelRequest[] = [];
  let responses = 0;
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (!isLoopback(req.socket.remoteAddress)) {
      res.writeHead(403).end();
      return;
    }
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method === 'POST' && path.endsWith('/responses')) {
      let parsed: { input?: unknown[]; tools?: { name?: string; type?: string }[] } = {};
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"the body is not JSON"}}');
        return;
      }
      const { turn, outputs } = turnOf(Array.isArray(parsed.input) ? parsed.input : []);
      const r: ModelRequest = { method: 'POST', path, turn, outputs, tools: (parsed.tools ?? []).map((t) => t.name ?? t.type ?? '?') };
      requests.push(r);
      onRequest?.(r);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(respond(script, turn, `resp_${++responses}`));
      return;
    }
    const r: ModelRequest = { method: req.method ?? '?', path, outputs: {}, tools: [] };
    requests.push(r);
    onRequest?.(r);
    // Model lists and the like: nothing to offer beyond the configured model.
    if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"models":[]}');
    else res.writeHead(404).end();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
