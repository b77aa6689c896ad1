// toolnorm/ag-ui: AG-UI 1.0 events of tool activity (see docs/outputs.md).
export { AgUiEncoder, PROGRESS_ACTIVITY, agUiEncoder, agUiEventsOf, resultContent, resultMessageId } from './encoder.js';
export type { AgUiEvent, AgUiEventType } from './types.js';
