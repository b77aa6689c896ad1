// toolnorm/ag-ui: AG-UI 1.0 events of tool activity (see docs/outputs.md).
export { AgUiEncoder, APPROVAL_ACTIVITY, PLAN_ACTIVITY, PROGRESS_ACTIVITY, agUiEncoder, agUiEventsOf, resultContent, resultMessageId, runIdOf } from './encoder.js';
export { EventType } from './types.js';
export type { AgUiContentPart, AgUiEvent, AgUiEventType, AgUiMessage, AgUiOptions, AgUiToolCall } from './types.js';
