// The substance of a call (docs/contract.md#substance): one builder per typed metadata key, used
// by every adapter and the executor, and the readers every output uses instead of provider input.
export { fileChange, type FileChangeInput } from './files.js';
export { unifiedDiff, diffStats, hunkTexts, splitLines, type LineStats, type UnifiedDiff } from './diff.js';
export { absolutePath, resolvedPath, isAbsolutePath } from './paths.js';
export { planEntry, planStatus, planPriority, toolPlan, type PlanEntryInput } from './plan.js';
export { parseApplyPatch, applyPatchFiles, type ParsedPatch, type PatchHunk, type PatchChunk, type PatchProblem, type PatchFiles } from './apply-patch.js';
