// Static (TypeBox) types of every definition, for the conformance check that compares them with
// the json-schema-to-typescript output in generated/types.ts.
export * from './kind.js';
export * from './state.js';
export * from './error.js';
export * from './timing.js';
export * from './compression.js';
export * from './executor.js';
export * from './substance.js';
export * from './metadata.js';
export * from './output.js';
export * from './part.js';
export * from './event.js';
export * from './diagnostic.js';
export * from './acp.js';
export * from './ui.js';
