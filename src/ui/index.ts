// `toolnorm/ui`: the legacy UI ToolPart, with the legacy or the canonical state names.
export { toUiPart, LEGACY_STATES, type UiStateNames } from './to-ui.js';
