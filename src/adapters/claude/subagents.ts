// Links subagent activity to the Task/Agent call that spawned it, across every layout Claude Code
// has written (notes/claude.md §6):
// - stream-json / SDK: `parent_tool_use_id` on each frame (no bookkeeping needed here);
// - transcripts 2.0+: `agentId` on each subagent line, linked to the Task by the Task result's
//   `toolUseResult.agentId`, `task_started.task_id`, an `agent_progress` line or `agent-<id>.meta.json`;
// - transcripts 1.0.x: inline `isSidechain` lines with no id at all; the sidechain's root text is
//   the Task's `prompt`, and every later line chains to it by `parentUuid`.
import { BoundedMap } from './bounded.js';

interface TaskPrompt {
  taskId: string;
  prompt: string;
  linked: boolean;
}

export class SubagentLinks {
  /** agentId → part id of its Task call. */
  private readonly taskOfAgent = new BoundedMap<string, string>(50_000);
  /** agentId → calls made by that agent before its Task was known. */
  private readonly waiting = new Map<string, string[]>();
  /** Sidechain line uuid → Task part id (1.0.x inline sidechains). */
  private readonly sidechain = new BoundedMap<string, string>(100_000);
  /** Recent Task calls and their prompts, for matching sidechain roots. */
  private readonly prompts: TaskPrompt[] = [];

  taskOf(agentId: string): string | undefined {
    return this.taskOfAgent.get(agentId);
  }

  /** Records the link; returns the waiting child calls that can now be linked. */
  link(agentId: string, taskId: string): string[] {
    this.taskOfAgent.set(agentId, taskId);
    const p = this.prompts.find((t) => t.taskId === taskId);
    if (p) p.linked = true;
    const children = this.waiting.get(agentId) ?? [];
    this.waiting.delete(agentId);
    return children;
  }

  wait(agentId: string, childId: string): void {
    const list = this.waiting.get(agentId);
    if (list) list.push(childId);
    else this.waiting.set(agentId, [childId]);
  }

  /** Agents whose calls never found their Task, with those calls. */
  unlinked(): [string, string[]][] {
    return [...this.waiting.entries()];
  }

  rememberTask(taskId: string, prompt: unknown): void {
    if (typeof prompt !== 'string' || !prompt.trim()) return;
    this.prompts.push({ taskId, prompt: prompt.trim(), linked: false });
    if (this.prompts.length > 1000) this.prompts.shift();
  }

  /** The unlinked Task whose prompt is `text` (a sidechain's first user message). */
  matchPrompt(text: string): string | undefined {
    const t = text.trim();
    const hit = this.prompts.find((p) => !p.linked && p.prompt === t);
    if (hit) hit.linked = true;
    return hit?.taskId;
  }

  /** Inline sidechain bookkeeping: the Task a sidechain line belongs to, via its parent line. */
  sidechainTask(uuid: string | undefined, parentUuid: string | undefined): string | undefined {
    const taskId = parentUuid ? this.sidechain.get(parentUuid) : undefined;
    if (taskId && uuid) this.sidechain.set(uuid, taskId);
    return taskId;
  }

  startSidechain(uuid: string, taskId: string): void {
    this.sidechain.set(uuid, taskId);
  }
}
