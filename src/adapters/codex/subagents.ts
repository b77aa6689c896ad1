// Sub-agent ("collab") calls: exec `collab_tool_call`, app-server `collabAgentToolCall` (and the
// older `collabToolCall`), `subAgentActivity`, and rollout `spawn_agent`/`send_input`/`wait`/…
// function calls. All are kind `subagent`; the spawned thread id is the child session.
import { lineTitle } from '../shared/command-title.js';
import { arr, camel, get, nonEmpty, obj, text, type Obj } from './fields.js';

/** Tools that create (or bring back) the agent thread they name: their receivers are children. */
export const SPAWNING_TOOLS = new Set(['spawnAgent', 'resumeAgent']);

const short = (s: string | undefined, max = 60) => (s ? lineTitle(s, max) : '');

function agentsWord(n: number): string {
  return n > 1 ? `${n} agents` : 'agent';
}

/** Title of a collab tool by its camelCase name. */
export function agentToolTitle(tool: string, prompt: string | undefined, receivers: number): string {
  const p = short(prompt);
  switch (tool) {
    case 'spawnAgent':
      return p ? `Spawning agent: ${p}` : 'Spawning agent';
    case 'sendInput':
    case 'sendMessage':
    case 'followupTask':
      return p ? `Messaging ${agentsWord(receivers)}: ${p}` : `Messaging ${agentsWord(receivers)}`;
    case 'wait':
      return `Waiting for ${agentsWord(receivers)}`;
    case 'closeAgent':
      return `Closing ${agentsWord(receivers)}`;
    case 'resumeAgent':
      return `Resuming ${agentsWord(receivers)}`;
    case 'interruptAgent':
      return `Interrupting ${agentsWord(receivers)}`;
    case 'listAgents':
      return 'Listing agents';
    default:
      return p ? `Running agent tool ${tool}: ${p}` : `Running agent tool ${tool}`;
  }
}

/** Receiver thread ids, from the current list or the older single-id fields. */
export function receiversOf(item: Obj): string[] {
  const list = arr(get(item, 'receiverThreadIds'))?.filter((t): t is string => typeof t === 'string' && t !== '');
  if (list?.length) return list;
  return [nonEmpty(get(item, 'newThreadId')), nonEmpty(get(item, 'receiverThreadId'))].filter((t): t is string => !!t);
}

export interface AgentState {
  status?: string;
  message?: string;
}

/** `agentsStates` (`agents_states`) as `{threadId: {status, message}}`. */
export function agentStates(item: Obj): Record<string, AgentState> | undefined {
  const raw = obj(get(item, 'agentsStates'));
  if (!raw) {
    const single = obj(get(item, 'agentStatus'));
    return single ? { [receiversOf(item)[0] ?? 'agent']: { status: text(single.status), message: text(single.message) } } : undefined;
  }
  const out: Record<string, AgentState> = {};
  for (const [id, v] of Object.entries(raw)) {
    const s = obj(v);
    const state: AgentState = {};
    const status = s ? text(s.status) : text(v);
    if (status) state.status = camel(status);
    const message = s ? text(s.message) : undefined;
    if (message) state.message = message;
    out[id] = state;
  }
  return out;
}

/** Agent status words that mean the agent failed. */
export const AGENT_FAILED = new Set(['errored', 'notFound', 'error', 'failed']);

/** `Starting agent /root/say_hello` etc. for `subAgentActivity`. */
export function activityTitle(kind: string | undefined, agentPath: string | undefined): string {
  const who = agentPath ? `agent ${agentPath}` : 'agent';
  switch (kind && camel(kind)) {
    case 'started':
      return `Starting ${who}`;
    case 'interacted':
      return `Messaging ${who}`;
    case 'interrupted':
      return `Interrupting ${who}`;
    case 'completed':
      return `Finishing ${who}`;
    default:
      return `Tracking ${who}`;
  }
}
