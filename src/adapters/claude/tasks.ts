// `system/task_*` messages → the fields of the Task (or background Bash) part's `metadata.task`.
// They enrich the part only: no state change, no text. Field names are camelCase; the prompt is
// left out because the part's input already holds it.

import { ownKeysOnly } from '../shared/table.js';

type Obj = Record<string, unknown>;

/** Wire field → metadata.task field, per message subtype. */
const FIELDS: Record<string, Record<string, string>> = {
  task_started: {
    task_id: 'taskId', run_id: 'runId', task_type: 'type', description: 'description', subagent_type: 'subagentType',
    is_backgrounded: 'backgrounded', spawn_depth: 'spawnDepth', parent_task_id: 'parentTaskId', workflow_name: 'workflowName',
  },
  task_progress: { task_id: 'taskId', description: 'progress', usage: 'usage', last_tool_name: 'lastToolName', summary: 'summary' },
  task_notification: { task_id: 'taskId', status: 'status', summary: 'summary', output_file: 'outputFile', usage: 'usage', reason: 'reason' },
  // Named by the spec (`task_started/task_progress/task_completed`); no recorded version has sent it
  // yet, so it takes the fields its siblings carry for the end of a task.
  task_completed: { task_id: 'taskId', status: 'status', summary: 'summary', result: 'result', output_file: 'outputFile', usage: 'usage', duration_ms: 'durationMs', error: 'error' },
};

const PATCH_FIELDS: Record<string, string> = {
  status: 'status', description: 'description', end_time: 'endTime', total_paused_ms: 'totalPausedMs', error: 'error', is_backgrounded: 'backgrounded',
};
ownKeysOnly(PATCH_FIELDS);

type FieldList = readonly (readonly [wire: string, key: string])[];

/** The tables as [wire, key] lists, built once: `Object.entries` per message was most of the cost. */
const FIELD_LISTS: Record<string, FieldList> = Object.fromEntries(Object.entries(FIELDS).map(([k, v]) => [k, Object.entries(v)]));
ownKeysOnly(FIELD_LISTS);
const PATCH_LIST: FieldList = Object.entries(PATCH_FIELDS);
const TASK_ID_LIST: FieldList = [['task_id', 'taskId']];

function pick(from: Obj, fields: FieldList): Obj {
  const out: Obj = {};
  for (let i = 0; i < fields.length; i++) {
    const [wire, key] = fields[i]!;
    const v = from[wire];
    if (v !== undefined && v !== null && v !== '') out[key] = v;
  }
  return out;
}

export const TASK_SUBTYPES = new Set(['task_started', 'task_progress', 'task_updated', 'task_notification', 'task_completed']);

/** The metadata.task fields one task message contributes. */
export function taskFields(subtype: string, line: Obj): Obj {
  if (subtype === 'task_updated') {
    const patch = line.patch && typeof line.patch === 'object' ? (line.patch as Obj) : {};
    return { ...pick(line, TASK_ID_LIST), ...pick(patch, PATCH_LIST) };
  }
  const fields = pick(line, FIELD_LISTS[subtype] ?? []);
  if (subtype === 'task_started') fields.status ??= 'running';
  if (subtype === 'task_completed') fields.status ??= 'completed';
  return fields;
}
