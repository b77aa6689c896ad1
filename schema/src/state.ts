import { StringEnum, def } from './helpers.js';

export const TOOL_STATES = ['started', 'running', 'complete', 'error'] as const;

export const ToolState = def('ToolState', StringEnum(TOOL_STATES, {
  description:
    'Lifecycle of a tool part: started → running → complete | error. `complete` and `error` are terminal and never regress.',
}));
