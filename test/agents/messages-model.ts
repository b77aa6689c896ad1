// A scripted model behind a loopback Anthropic Messages API (`POST /v1/messages`, streamed as SSE),
// for running the real Claude Code binary without any network: ANTHROPIC_BASE_URL points here. As
// in responses-model.ts, each scenario is a table of turns, and the turn a request answers is told
// by the ids of the tool results it carries back (`toolu_t<turn>_<n>`). Requests that offer no Bash
// tool (Claude Code's side requests: titles, summaries) get a short text answer and do not move the
// script. Serves 127.0.0.1 only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelRequest, ScenarioName } from './responses-model.js';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown> };
type Turn = { blocks: (cwd: string) => Block[] } | { fail: { status: number; type: string; message: string } };

const bash = (command: string, description: string): Block => ({ type: 'tool_use', name: 'Bash', input: { command, description } });

/** The same stories as the Responses scenarios, told with Claude Code's tools. */
export const MESSAGES_SCENARIOS: Record<ScenarioName, Turn[]> = {
  tools: [
    // One stream (2>&1): the captured output comes in one order on every run.
    { blocks: () => [{ type: 'text', text: 'Looking around first.' }, bash('echo hi && ls /nonexistent_dir 2>&1', 'Greet and list a missing folder')] },
    { blocks: (cwd) => [{ type: 'tool_use', name: 'Write', input: { file_path: `${cwd}/hello.txt`, content: 'hello from the loopback model\n' } }] },
    { blocks: (cwd) => [{ type: 'tool_use', name: 'Read', input: { file_path: `${cwd}/hello.txt` } }, bash('cat hello.txt', 'Read it back')] },
    { blocks: () => [{ type: 'text', text: 'Wrote hello.txt.' }] },
  ],
  fail: [
    { fail: { status: 400, type: 'invalid_request_error', message: 'loopback model: prompt is too long' } },
  ],
  'long-command': [
    { blocks: () => [bash('echo started && sleep 600 && echo finished', 'Wait ten minutes')] },
    { blocks: () => [{ type: 'text', text: 'Finished waiting.' }] },
  ],
};

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role: string; content: unknown }[];
}

function turnOf(messages: MessagesBody['messages']): { turn: number; outputs: Record<string, string> } {
  let turn = 0;
  const outputs: Record<string, string> = {};
  for (const m of messages ?? []) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content as { type?: string; tool_use_id?: string; content?: unknown }[]) {
      if (b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
      outputs[b.tool_use_id] = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
      const k = /^toolu_t(\d+)_\d+$/.exec(b.tool_use_id);
      if (k) turn = Math.max(turn, Number(k[1]) + 1);
    }
  }
  return { turn, outputs };
}

const sse = (events: Record<string, unknown>[]) => events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');

/** A message as the streamed events Claude Code reads: start, each block (tool input as one JSON delta), delta, stop. */
function stream(id: string, model: string, blocks: Block[], turn: number): string {
  const events: Record<string, unknown>[] = [{ type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } } }];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_t${turn}_${index}`, name: b.name, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  const toolUse = blocks.some((b) => b.type === 'tool_use');
  events.push({ type: 'message_delta', delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } });
  events.push({ type: 'message_stop' });
  return sse(events);
}

const isLoopback = (address: string | undefined) => !!address && (address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1');

export async function startMessagesModel(scenario: ScenarioName, cwd: string, onRequest?: (r: ModelRequest) => void): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const script = MESSAGES_SCENARIOS[scenario];
  let n = 0;
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    if (!isLoopback(req.socket.remoteAddress)) return void res.writeHead(403).end();
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
      onRequest?.({ method: req.method ?? '?', path, outputs: {}, tools: [] });
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
    }
    let body: MessagesBody = {};
    try {
      body = JSON.parse(text) as MessagesBody;
    } catch {
      return void res.writeHead(400).end();
    }
    const tools = (body.tools ?? []).map((t) => t.name ?? '?');
    const main = tools.includes('Bash');
    const { turn, outputs } = turnOf(body.messages);
    onRequest?.({ method: 'POST', path, ...(main ? { turn } : {}), outputs, tools });
    const id = `msg_loopback_${++n}`;
    const model = body.model ?? 'claude';
    const step = main ? script[Math.min(turn, script.length - 1)]! : { blocks: () => [{ type: 'text' as const, text: 'Loopback session' }] };
    if ('fail' in step) {
      return void res.writeHead(step.fail.status, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: step.fail.type, message: step.fail.message } }));
    }
    const blocks = step.blocks(cwd);
    if (body.stream) return void res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(stream(id, model, blocks, turn));
    const content = blocks.map((b, i) => (b.type === 'text' ? b : { type: 'tool_use', id: `toolu_t${turn}_${i}`, name: b.name, input: b.input }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 10 } }));
  };
  const server = createServer((req, res) => {
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
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
