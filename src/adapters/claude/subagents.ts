// Links subagent activity to the Task/Agent call that spawned it, across every layout Claude Code
// has written (docs/providers/claude.md#subagent-layouts):
// - stream-json / SDK: `parent_tool_use_id` on each frame (no bookkeeping needed here);
// - transcripts 2.0+: `agentId` on each subagent line, linked to the Task by the Task result's
//   `toolUseResult.agentId`, `task_started.task_id`, an `agent_progress` line or `agent-<id>.meta.json`;
// - transcripts 1.0.x: inline `isSidechain` lines with no id at all; the sidechain's root text is
//   the Task's `prompt`, and every later line chains to it by `parentUuid`.
import { BoundedMap } from '../../collections/bounded.js';

/** Calls of one unlinked agent kept for a late link; more are counted, not kept. */
const MAX_WAITING = 10_000;
/**
 * Agents waiting for their Task at once. Past it the one waiting longest is given up (reported
 * as unlinked then, not at the end): otherwise every unlinked agent of a long input was held to the end.
 */
export const MAX_WAITING_AGENTS = 1_000;

export class SubagentLinks {
  /** agentId → part id of its Task call. */
  private readonly taskOfAgent = new BoundedMap<string, string>(5_000);
  /** agentId → calls made by that agent before its Task was known. */
  private readonly waiting = new Map<string, { ids: string[]; dropped: number }>();
  /** Sidechain line uuid → Task part id (1.0.x inline sidechains). */
  private readonly sidechain = new BoundedMap<string, string>(10_000);
  /** Recent Task calls not yet linked, with their prompts, for matching sidechain roots. */
  private readonly prompts = new BoundedMap<string, string>(1000);

  taskOf(agentId: string): string | undefined {
    return this.taskOfAgent.get(agentId);
  }

  /** Records the link; returns the waiting child calls that can now be linked. */
  link(agentId: string, taskId: string): string[] {
    if (this.taskOfAgent.get(agentId) === taskId && !this.waiting.has(agentId)) return [];
    this.taskOfAgent.set(agentId, taskId);
    this.prompts.delete(taskId);
    const children = this.waiting.get(agentId)?.ids ?? [];
    this.waiting.delete(agentId);
    return children;
  }

  /** Keeps `childId` waiting for its agent's Task; returns the agent given up to make room, if any. */
  wait(agentId: string, childId: string): { agentId: string; ids: string[]; dropped: number } | undefined {
    let w = this.waiting.get(agentId);
    let given: { agentId: string; ids: string[]; dropped: number } | undefined;
    if (!w) {
      if (this.waiting.size >= MAX_WAITING_AGENTS) {
        // A Map iterates in insertion order: the first key is the agent waiting longest.
        const [oldest, entry] = this.waiting.entries().next().value as [string, { ids: string[]; dropped: number }];
        this.waiting.delete(oldest);
        given = { agentId: oldest, ...entry };
      }
      this.waiting.set(agentId, (w = { ids: [], dropped: 0 }));
    }
    if (w.ids.length < MAX_WAITING) w.ids.push(childId);
    else w.dropped++;
    return given;
  }

  /** Agents whose calls never found their Task: the calls kept, and how many more there were. */
  unlinked(): [string, { ids: string[]; dropped: number }][] {
    return [...this.waiting.entries()];
  }

  rememberTask(taskId: string, prompt: unknown): void {
    if (typeof prompt === 'string' && prompt.trim()) this.prompts.set(taskId, prompt.trim());
  }

  /** The unlinked Task whose prompt is `text` (a sidechain's first user message). */
  matchPrompt(text: string): string | undefined {
    const t = text.trim();
    for (const [taskId, prompt] of this.prompts.entries()) {
      if (prompt === t) {
        this.prompts.delete(taskId);
        return taskId;
      }
    }
    return undefined;
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
